package io.spool.queue;

import io.spool.Spool;
import io.spool.api.log.LogConfig;
import io.spool.api.queue.SubscriptionMetrics;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.TopicConfig;
import org.agrona.concurrent.EpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A call into a subscription's agent is answered on a reading of the engine's clock taken after the call was sent,
 * even when the pass that takes the call had read the clock just before the caller moved it.
 */
class AgentClockTest
{
    @TempDir
    Path dir;

    @Test
    void aCallSentAfterTheClockMovedIsAnsweredOnTheNewTimeThoughItsPassReadTheClockBefore()
        throws InterruptedException
    {
        final AgentReadHoldingClock clock = new AgentReadHoldingClock(1_000_000);
        try (Spool spool = Spool.builder(dir).clock(clock).backgroundMaintenance(false).open())
        {
            spool.createTopic("orders", new TopicConfig(1,
                LogConfig.builder().segmentBytes(64 * 1024).maxRecordBytes(16 * 1024).build()));
            final Subscription work = spool.createSubscription("work", "orders", SubscriptionSettings.builder().build());
            spool.newProducer().send("orders", null, "waiting".getBytes(StandardCharsets.UTF_8)).join();
            work.sync();
            assertThat(work.metrics().oldestReadyAgeMillis()).isZero();

            clock.holdNextAgentRead();
            clock.awaitAgentReading();
            clock.advance(1_000);
            final AtomicReference<SubscriptionMetrics> answered = new AtomicReference<>();
            final Thread asking = new Thread(() -> answered.set(work.metrics()), "asking");
            asking.start();
            awaitParked(asking);
            clock.releaseAgentRead();
            asking.join();

            assertThat(answered.get().oldestReadyAgeMillis()).isEqualTo(1_000);
        }
    }

    /** A caller parks in the agent's request only after it queued the request. */
    private static void awaitParked(final Thread thread)
    {
        while (thread.getState() != Thread.State.WAITING && thread.getState() != Thread.State.TIMED_WAITING)
        {
            Thread.onSpinWait();
        }
    }

    /**
     * The engine's clock, able to hold the subscription agent's next reading until the test lets go, while
     * returning the time as it was when read: as if the agent read the clock just before the test moved it.
     */
    private static final class AgentReadHoldingClock implements EpochClock
    {
        private volatile long now;
        private volatile CountDownLatch release;
        private final CountDownLatch reading = new CountDownLatch(1);

        AgentReadHoldingClock(final long now)
        {
            this.now = now;
        }

        void holdNextAgentRead()
        {
            release = new CountDownLatch(1);
        }

        void awaitAgentReading() throws InterruptedException
        {
            reading.await();
        }

        void releaseAgentRead()
        {
            release.countDown();
        }

        void advance(final long millis)
        {
            now += millis;
        }

        @Override
        public long time()
        {
            final long time = now;
            final CountDownLatch held = release;
            if (held != null && held.getCount() > 0 && Thread.currentThread().getName().startsWith("spool-subscription-"))
            {
                reading.countDown();
                try
                {
                    held.await();
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
            }
            return time;
        }
    }
}
