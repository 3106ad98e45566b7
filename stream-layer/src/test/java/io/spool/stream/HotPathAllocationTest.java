package io.spool.stream;

import io.spool.api.SpoolException;
import io.spool.api.stream.PublishListener;
import io.spool.api.stream.StreamRecordHandler;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicPartition;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static io.spool.stream.EngineFixture.NO_WAIT;
import static io.spool.stream.EngineFixture.awaitCondition;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Publishing and polling through the zero-copy paths allocate nothing per record: the bytes a thread allocates
 * over many records stay below what a single small object per record would take.
 */
class HotPathAllocationTest
{
    private static final int RECORDS = 20_000;

    @TempDir
    Path dir;

    private static long allocatedByThisThread()
    {
        return ((com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean())
            .getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    @Test
    void zeroCopyPublishAndPollAllocateNothingPerRecord()
    {
        final EngineFixture fixture = new EngineFixture(dir);
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("hot", TopicConfig.of(2).withLog(EngineFixture.SMALL_SEGMENTS.toBuilder()
                .segmentBytes(4 << 20).build()));
            final AtomicLong confirmed = new AtomicLong();
            final StreamProducer producer = engine.newProducer(new PublishListener()
            {
                @Override
                public void onPublished(final long correlation, final String topic, final int partition,
                    final long offset)
                {
                    confirmed.incrementAndGet();
                }

                @Override
                public void onFailed(final long correlation, final String topic, final int partition,
                    final SpoolException error)
                {
                    throw new AssertionError(error);
                }
            });
            final UnsafeBuffer key = new UnsafeBuffer(new byte[8]);
            final UnsafeBuffer value = new UnsafeBuffer(new byte[64]);

            publish(producer, key, value, 0, RECORDS);
            final long beforePublish = allocatedByThisThread();
            publish(producer, key, value, RECORDS, RECORDS);
            final long publishBytes = allocatedByThisThread() - beforePublish;
            awaitCondition("every record confirmed", () -> confirmed.get() == 2L * RECORDS);

            try (StreamConsumer consumer = engine.newConsumer(ConsumerConfig.standalone()))
            {
                consumer.assign(List.of(new TopicPartition("hot", 0), new TopicPartition("hot", 1)));
                final long[] sum = {0};
                final StreamRecordHandler handler = (topic, partition, record) -> sum[0] += record.offset();
                drain(consumer, handler, RECORDS);
                final long beforePoll = allocatedByThisThread();
                drain(consumer, handler, RECORDS);
                final long pollBytes = allocatedByThisThread() - beforePoll;

                assertThat(publishBytes).as("bytes allocated publishing %d records", RECORDS).isLessThan(RECORDS);
                assertThat(pollBytes).as("bytes allocated polling %d records", RECORDS).isLessThan(RECORDS);
                assertThat(sum[0]).isPositive();
            }
            try (StreamConsumer member = engine.newConsumer(ConsumerConfig.group("g").withAutoCommit(false, 0)))
            {
                member.subscribe("hot", "g");
                final StreamRecordHandler handler = (topic, partition, record) -> { };
                drain(member, handler, RECORDS);
                final long beforePoll = allocatedByThisThread();
                drain(member, handler, RECORDS);
                final long memberPollBytes = allocatedByThisThread() - beforePoll;
                assertThat(memberPollBytes).as("bytes a steady group member allocates polling %d records", RECORDS)
                    .isLessThan(RECORDS);
            }
        }
    }

    private static void publish(final StreamProducer producer, final UnsafeBuffer key, final UnsafeBuffer value,
        final int from, final int count)
    {
        for (int i = from; i < from + count; i++)
        {
            key.putLong(0, i);
            producer.publish("hot", key, 0, 8, value, 0, 0, value, 0, 64, i);
        }
    }

    private static void drain(final StreamConsumer consumer, final StreamRecordHandler handler, final int records)
    {
        int read = 0;
        while (read < records)
        {
            read += consumer.poll(handler, 100, 1 << 20, NO_WAIT);
        }
    }
}
