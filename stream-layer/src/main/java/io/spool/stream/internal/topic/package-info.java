/**
 * Internal: how {@link io.spool.stream.TopicRegistry} persists its topics: the topic metadata file and its copy
 * ({@link io.spool.stream.internal.topic.TopicMetadataStore}, laid out by {@link
 * io.spool.stream.internal.topic.TopicMetadataDescriptor}), a topic as stored ({@link
 * io.spool.stream.internal.topic.StoredTopic}), a topic config as stored settings ({@link
 * io.spool.stream.internal.topic.TopicSettings}), and the rules for topic and group names ({@link
 * io.spool.stream.internal.topic.TopicNames}).
 * <p>
 * Not API: nothing outside stream-layer uses it. It may use the stream layer's and the log store's value types and
 * exceptions, never another internal package. Stateless but for the store, which the registry calls under its lock.
 */
package io.spool.stream.internal.topic;
