package io.spool.perf.bench;

import io.spool.api.log.RecordView;
import io.spool.api.stream.StreamRecordHandler;
import io.spool.api.stream.TopicPartition;
import io.spool.log.PartitionLog;
import io.spool.stream.ConsumerConfig;
import io.spool.stream.StreamConsumer;
import io.spool.stream.StreamEngine;
import org.HdrHistogram.AtomicHistogram;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads every record of a topic from offset 0 through one standalone {@link StreamConsumer} assigned all its
 * partitions, in zero-copy polls; the handler touches what {@link ReplayLoop}'s does. One clock read per poll.
 * Not thread-safe: one reading thread.
 */
public final class StreamReplayLoop implements Replay, StreamRecordHandler
{
    private final StreamConsumer consumer;
    private final List<TopicPartition> partitions = new ArrayList<>();
    private final long records;
    private final int maxRecordsPerPoll;
    /** Stored, never read: a heap store keeps the JIT from dropping the loads the handler exists to make. */
    private long checksum;

    /** @param topic a topic that no longer grows. */
    public StreamReplayLoop(final StreamEngine engine, final String topic, final int maxRecordsPerPoll)
    {
        long total = 0;
        for (int i = 0; i < engine.topics().partitionCount(topic); i++)
        {
            partitions.add(new TopicPartition(topic, i));
            final PartitionLog log = engine.topics().topic(topic).partition(i);
            total += log.endOffset() - log.startOffset();
        }
        this.records = total;
        this.maxRecordsPerPoll = maxRecordsPerPoll;
        this.consumer = engine.newConsumer(ConsumerConfig.standalone());
        consumer.assign(partitions);
    }

    @Override
    public long replayAll(final AtomicHistogram pollNanos)
    {
        consumer.seekToBeginning(partitions);
        long read = 0;
        long before = System.nanoTime();
        while (read < records)
        {
            final int polled = consumer.poll(this, maxRecordsPerPoll, Integer.MAX_VALUE, Duration.ZERO);
            final long now = System.nanoTime();
            if (polled == 0)
            {
                throw new IllegalStateException("no record after " + read + " of " + records);
            }
            LatencyHistograms.record(pollNanos, now - before);
            read += polled;
            before = now;
        }
        return read;
    }

    @Override
    public void onRecord(final String topic, final int partition, final RecordView record)
    {
        checksum += ReplayLoop.touch(record);
    }

    @Override
    public void close()
    {
        consumer.close();
    }
}
