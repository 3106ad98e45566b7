package io.spool.api.stream;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * Reads topic partitions by offset: replay from any offset, from the beginning or from the end, as often as wanted;
 * reading never changes the log. Positions move with {@code seek*} and with every poll. Not thread-safe: one reader
 * per thread.
 */
public interface StreamReader extends AutoCloseable
{
    /**
     * Reads exactly these partitions, replacing any earlier assignment; kept positions stay.
     *
     * @throws UnknownTopicException     when a topic does not exist.
     * @throws UnknownPartitionException when a partition number is out of range.
     */
    void assign(Collection<TopicPartition> partitions);

    /** The partitions this reader reads now. */
    Set<TopicPartition> assignment();

    /** The offset of the next record this reader reads from the partition. */
    long position(TopicPartition partition);

    /** The next poll reads the partition from {@code offset}. */
    void seek(TopicPartition partition, long offset);

    /** The next poll reads each partition from its log start. */
    void seekToBeginning(Collection<TopicPartition> partitions);

    /** The next poll reads each partition from its end: only records published after now. */
    void seekToEnd(Collection<TopicPartition> partitions);

    /**
     * Hands up to {@code maxRecords} records, about {@code maxBytes} of them (at least one), as views valid only
     * during the handler's call, waiting up to {@code timeout} for the first one.
     *
     * @return how many records were handed over; 0 when the timeout passed first.
     * @throws io.spool.api.log.OffsetOutOfRangeException when a position fell below the log start (seek before
     *                                                    polling again).
     */
    int poll(StreamRecordHandler handler, int maxRecords, int maxBytes, Duration timeout);

    /** Like {@link #poll(StreamRecordHandler, int, int, Duration)} but returns copies. Allocates. */
    List<ConsumerRecord> poll(int maxRecords, int maxBytes, Duration timeout);

    @Override
    void close();
}
