/**
 * Streams as applications see them: {@link io.spool.api.stream.Producer} and
 * {@link io.spool.api.stream.StreamReader}, records ({@link io.spool.api.stream.ProducerRecord},
 * {@link io.spool.api.stream.ConsumerRecord}, zero-copy {@link io.spool.api.stream.StreamRecordHandler} views),
 * topic settings and descriptions, group reports, the key partitioner both sides use, and the stream exceptions.
 * <p>
 * API. Values are immutable; a producer or a reader belongs to one thread.
 */
package io.spool.api.stream;
