/**
 * The stream layer's API: {@link io.spool.stream.StreamEngine} holds topics of partitioned logs,
 * {@link io.spool.stream.StreamProducer} publishes to them, {@link io.spool.stream.StreamConsumer} reads them by
 * offset or in a consumer group ({@link io.spool.stream.GroupCoordinator}), with the partitioner, the assignors,
 * configuration, value types and exceptions.
 * <p>
 * API. It may use the log store's API and its own {@code internal} subpackages, but no public member exposes an
 * internal type ({@code StreamLayerArchitectureTest}). Threading is stated on each type.
 */
package io.spool.stream;
