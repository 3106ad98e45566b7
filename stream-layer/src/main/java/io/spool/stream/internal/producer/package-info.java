/**
 * Internal: what {@link io.spool.stream.ProducerSequences} keeps durable and looks up to answer a producer's retry:
 * the journal of accepted and stored batches ({@link io.spool.stream.internal.producer.ProducerJournal}) and the
 * search of a partition's log for a batch already stored ({@link
 * io.spool.stream.internal.producer.TopicStoredBatches}).
 * <p>
 * Not API: nothing outside stream-layer uses it. It may use the stream layer's and the log store's API types (the
 * batch lookup reads partitions through {@link io.spool.stream.TopicRegistry}), never another internal package. The
 * journal is written under the sequences' lock; the batch lookup holds no state.
 */
package io.spool.stream.internal.producer;
