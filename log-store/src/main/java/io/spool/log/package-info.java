/**
 * The log store's API: what the modules above and applications use. {@link io.spool.log.LogStore} opens partition
 * logs, {@link io.spool.log.LogProducer} publishes into them, {@link io.spool.log.LogReader} reads them, with
 * their configuration, record format ({@link io.spool.api.log.RecordDescriptor}, {@link io.spool.api.log.RecordView}),
 * durable-file helpers and exceptions.
 * <p>
 * API. It may use its own {@code internal} subpackages, but no public member exposes an internal type
 * ({@code LogStoreArchitectureTest}). Threading is stated on each type.
 */
package io.spool.log;
