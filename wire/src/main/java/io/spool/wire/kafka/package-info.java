/**
 * Kafka's protocol over a Spool engine, so that stock Kafka clients and tools work against it unchanged
 * ({@code docs/guide/kafka.md}): {@link io.spool.wire.kafka.KafkaListener} parses each request with kafka-clients' own
 * generated message classes and answers produce, fetch, offsets, metadata and topic administration, classic and
 * KIP-848 consumer groups, and KIP-932 share groups on Spool subscriptions.
 * <p>
 * API: {@link io.spool.wire.kafka.KafkaListener} and {@link io.spool.wire.kafka.KafkaListenerConfig}. This is the one
 * package that names kafka-clients' protocol classes (they carry no compatibility promise), so a Kafka upgrade
 * touches nothing else. A connection's state belongs to its Netty event loop; group coordination and topic
 * administration run on the listener's admin thread, as {@link io.spool.wire.kafka.KafkaBroker} routes them.
 */
package io.spool.wire.kafka;
