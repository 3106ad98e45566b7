package io.spool.queue;

import io.spool.Spool;
import io.spool.api.log.LogConfig;
import io.spool.api.queue.ConsumerOptions;
import io.spool.api.queue.QueueException;
import io.spool.api.queue.SubscriptionMetrics;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.TopicConfig;
import org.agrona.concurrent.EpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A push consumer out of deliveries runs its subscription's pass on its own thread: what that pass settles is
 * journaled as the agent's own would be, the listener's use of its thread cannot break the journal, and a pass that
 * fails there stops the subscription with its cause, as one on the agent's thread does.
 */
class ConsumerThreadPassTest
{
    private static final int MESSAGES = 2_000;
    private static final int PREFETCH = 10;

    @TempDir
    Path dir;

    /**
     * A listener that interrupts its own thread: an interrupt during a journal write closes the journal's channel,
     * so the consumer's pass keeps the flag aside. Every ack is journaled: none of the messages comes back after a
     * restart.
     */
    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aListenerInterruptingItsThreadLeavesThePassesOnItJournaled() throws InterruptedException
    {
        final ThreadNotingClock clock = new ThreadNotingClock();
        try (Spool spool = open(clock))
        {
            spool.createTopic("orders", config());
            final Subscription work = spool.createSubscription("work", "orders", SubscriptionSettings.DEFAULT);
            final BitSet seen = new BitSet();
            final CountDownLatch all = new CountDownLatch(MESSAGES);
            final QueueConsumer consumer = work.consume(ConsumerOptions.prefetch(PREFETCH), (delivery, c) ->
            {
                seen.set((int)delivery.offset());
                c.ack(delivery);
                Thread.currentThread().interrupt();
                all.countDown();
            });
            publish(spool, MESSAGES);
            assertThat(all.await(30, TimeUnit.SECONDS)).as("every message delivered").isTrue();
            consumer.close();
            work.sync();

            assertThat(seen.cardinality()).isEqualTo(MESSAGES);
            assertThat(clock.readOnConsumerThread).as("a consumer's thread ran a pass").isTrue();
            assertThat(work.metrics().inFlight()).isZero();
        }
        try (Spool reopened = open(new ThreadNotingClock()))
        {
            final SubscriptionMetrics metrics = reopened.subscription("work").metrics();
            assertThat(metrics.ready()).as("acked before the restart").isZero();
            assertThat(metrics.inFlight()).isZero();
        }
    }

    /**
     * A pass that fails on a consumer's thread stops the subscription as a failure on the agent's thread does:
     * every call is refused with the cause. The consumer's thread lives on, and the consumer closes.
     */
    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aPassFailingOnAConsumersThreadStopsTheSubscriptionWithItsCause()
    {
        final ThreadNotingClock clock = new ThreadNotingClock();
        try (Spool spool = open(clock))
        {
            spool.createTopic("orders", config());
            final Subscription work = spool.createSubscription("work", "orders", SubscriptionSettings.DEFAULT);
            final QueueConsumer consumer = work.consume(ConsumerOptions.prefetch(PREFETCH), (delivery, c) ->
                c.ack(delivery));
            clock.breakConsumerReads = true;
            publish(spool, MESSAGES);

            QueueException refusal = null;
            while (refusal == null)
            {
                try
                {
                    work.sync();
                    Thread.onSpinWait();
                }
                catch (final QueueException ex)
                {
                    refusal = ex;
                }
            }
            assertThat(refusal).hasMessage("subscription work stopped: its agent failed with " +
                "java.lang.IllegalStateException: the clock broke on a consumer's thread");
            assertThatThrownBy(() -> work.receive(1, 0)).isInstanceOf(QueueException.class)
                .hasCauseInstanceOf(IllegalStateException.class);
            consumer.close();
            assertThat(consumer.isClosed()).isTrue();
        }
    }

    private Spool open(final EpochClock clock)
    {
        return Spool.builder(dir).clock(clock).backgroundMaintenance(false).open();
    }

    private static TopicConfig config()
    {
        return new TopicConfig(1, LogConfig.builder().segmentBytes(1024 * 1024).maxRecordBytes(16 * 1024).build());
    }

    private static void publish(final Spool spool, final int count)
    {
        CompletableFuture<?> last = null;
        for (int i = 0; i < count; i++)
        {
            last = spool.newProducer().send("orders", null, ("order-" + i).getBytes(StandardCharsets.UTF_8));
        }
        last.join();
    }

    /** A fixed time that notes whether a consumer's thread read it, and can be made to throw there. */
    private static final class ThreadNotingClock implements EpochClock
    {
        volatile boolean readOnConsumerThread;
        volatile boolean breakConsumerReads;

        @Override
        public long time()
        {
            if (Thread.currentThread().getName().startsWith("spool-consumer-"))
            {
                readOnConsumerThread = true;
                if (breakConsumerReads)
                {
                    throw new IllegalStateException("the clock broke on a consumer's thread");
                }
            }
            return 1_000_000;
        }
    }
}
