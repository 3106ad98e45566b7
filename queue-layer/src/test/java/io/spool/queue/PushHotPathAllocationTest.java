package io.spool.queue;

import io.spool.Spool;
import io.spool.SpoolProducer;
import io.spool.api.queue.ConsumerOptions;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The push path as a whole (the agent acquiring, handing over, settling and journaling, the consumer thread reading
 * each message and acking it) allocates nothing per message: the agent's and the consumer's threads are measured
 * with the JVM's per-thread allocation counter over the second and the third quarter of a backlog's drain, and the
 * quieter of the two is the figure. A structure that grows to a larger working set (an array of runs doubling, a page
 * of in-flight records) allocates once, in one quarter or the other, at a moment that moves with the threads'
 * timing; an allocation per message shows in both.
 */
class PushHotPathAllocationTest
{
    private static final int MESSAGES = 400_000;
    private static final int PUBLISH_BATCH = 1_000;

    @TempDir
    Path directory;

    @Test
    void drainingABacklogThroughAPushConsumerAllocatesNothingPerMessage() throws Exception
    {
        try (Spool spool = Spool.builder(directory).backgroundMaintenance(false).open())
        {
            spool.createTopic("work", TopicConfig.of(1));
            publish(spool, MESSAGES);
            final Subscription subscription = spool.createSubscription("work", "work", SubscriptionSettings.DEFAULT);
            final AtomicLong remaining = new AtomicLong(MESSAGES);
            // Marks after the first, second and third quarter, as counts of messages left.
            final long[] marks = {MESSAGES * 3 / 4, MESSAGES / 2, MESSAGES / 4};
            final CountDownLatch[] reached = new CountDownLatch[marks.length];
            final CountDownLatch[] read = new CountDownLatch[marks.length];
            for (int m = 0; m < marks.length; m++)
            {
                reached[m] = new CountDownLatch(1);
                read[m] = new CountDownLatch(1);
            }
            final CountDownLatch done = new CountDownLatch(1);
            final QueueConsumer consumer = subscription.consume(ConsumerOptions.prefetch(1_000), (delivery, self) ->
            {
                self.ack(delivery);
                final long left = remaining.decrementAndGet();
                // The consumer waits at each mark until the counters are read, so each quarter is measured however
                // fast the drain runs.
                for (int m = 0; m < marks.length; m++)
                {
                    if (left == marks[m])
                    {
                        reached[m].countDown();
                        awaitQuietly(read[m]);
                    }
                }
                if (left == 0)
                {
                    done.countDown();
                }
            });
            final long[] allocatedAtMark = new long[marks.length];
            for (int m = 0; m < marks.length; m++)
            {
                assertThat(reached[m].await(1, TimeUnit.MINUTES)).isTrue();
                allocatedAtMark[m] = allocatedBytes();
                read[m].countDown();
            }
            assertThat(done.await(1, TimeUnit.MINUTES)).isTrue();
            consumer.close();

            final long messages = MESSAGES / 4;
            long fewest = Long.MAX_VALUE;
            for (int m = 1; m < marks.length; m++)
            {
                final long allocated = allocatedAtMark[m] - allocatedAtMark[m - 1];
                System.out.printf("push hot path: %d bytes allocated by the agent and consumer threads over %d " +
                    "messages (%.4f bytes per message)%n", allocated, messages, (double)allocated / messages);
                fewest = Math.min(fewest, allocated);
            }
            assertThat((double)fewest / messages).isLessThan(0.01);
        }
    }

    /**
     * Waits on the consumer thread for the test thread to read the counters; spinning, because a blocking wait
     * allocates its queue node on the thread being measured.
     */
    private static void awaitQuietly(final CountDownLatch latch)
    {
        while (latch.getCount() > 0)
        {
            Thread.onSpinWait();
        }
    }

    /** What the subscription's agent thread and its consumer's thread allocated so far. */
    private static long allocatedBytes()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        long allocated = 0;
        for (final Thread thread : Thread.getAllStackTraces().keySet())
        {
            if (thread.getName().equals("spool-subscription-work") || thread.getName().startsWith("spool-consumer-"))
            {
                allocated += threads.getThreadAllocatedBytes(thread.getId());
            }
        }
        return allocated;
    }

    private static void publish(final Spool spool, final int messages)
    {
        final SpoolProducer producer = spool.newProducer();
        final byte[] value = new byte[100];
        final List<ProducerRecord> batch = new ArrayList<>();
        for (int i = 0; i < PUBLISH_BATCH; i++)
        {
            batch.add(new ProducerRecord("work", 0, null, Map.of(), value));
        }
        for (int published = 0; published < messages; published += PUBLISH_BATCH)
        {
            producer.sendBatch(batch).join();
        }
    }
}
