/**
 * Internal: what an offset consumer keeps per partition: its cursor over the partition log (position, committed
 * offset) and the wake-up that ends a long poll when records are committed.
 * <p>
 * Not API: nothing outside stream-layer uses it. It may use the stream layer's and the log store's API types, never
 * another internal package. Owned by the consumer's thread; the wake-up is signalled from the pipeline's.
 */
package io.spool.stream.internal.consumer;
