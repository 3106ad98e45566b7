/**
 * Internal: the ingest pipeline. A Disruptor ring of pre-allocated slots that producers frame records into, and its
 * stages: append (the one writer of each log), flush (group commit by durability policy, then the committed end),
 * publish (confirms); each log's writing side ({@link io.spool.log.internal.pipeline.PartitionWriter}), the dedup
 * index and the segment prefaulter.
 * <p>
 * Not API: nothing outside log-store uses it. It may use the segment package and the log store's API types, never
 * recovery. Each stage's state is owned by its stage thread; the ring's sequences hand a slot from one to the next.
 */
package io.spool.log.internal.pipeline;
