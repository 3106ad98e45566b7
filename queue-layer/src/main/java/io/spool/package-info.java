/**
 * The embedded engine: {@link io.spool.Spool} (a {@link io.spool.api.Messaging}) opens a data directory and hands out
 * producers, stream readers, subscriptions and push consumers; {@link io.spool.SpoolProducer} publishes through the
 * subscriptions' publish gate; the engine's admin and metrics.
 * <p>
 * API: what an application that runs Spool in its own process imports. It builds the stream and queue layers' engines
 * and holds no state of its own beyond them. Thread-safe: the engine and its admin may be called from any thread.
 */
package io.spool;
