package io.spool.queue;

import io.spool.Spool;
import io.spool.api.log.LogConfig;
import io.spool.api.queue.QueueException;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.TopicConfig;
import org.agrona.concurrent.EpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A subscription whose agent thread failed answers every call at once with an error that names the failure; before,
 * the agent's run flag stayed up and callers waited on its answer for ever.
 */
class AgentFailureTest
{
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void callsAfterTheAgentFailedAreRefusedWithItsCauseInsteadOfWaitingForever()
    {
        final AgentBreakingClock clock = new AgentBreakingClock();
        try (Spool spool = Spool.builder(dir).clock(clock).backgroundMaintenance(false).open())
        {
            spool.createTopic("orders", new TopicConfig(1,
                LogConfig.builder().segmentBytes(64 * 1024).maxRecordBytes(16 * 1024).build()));
            final Subscription work =
                spool.createSubscription("work", "orders", SubscriptionSettings.builder().build());
            work.sync();

            clock.breakAgentReads();
            for (int call = 0; call < 2; call++)
            {
                assertThatThrownBy(work::sync)
                    .isInstanceOf(QueueException.class)
                    .hasMessage("subscription work stopped: its agent failed with " +
                        "java.lang.IllegalStateException: the clock broke")
                    .hasCauseInstanceOf(IllegalStateException.class);
            }
        }
    }

    /** The engine's clock, which can be made to throw whenever a subscription agent reads it. */
    private static final class AgentBreakingClock implements EpochClock
    {
        private volatile boolean broken;

        void breakAgentReads()
        {
            broken = true;
        }

        @Override
        public long time()
        {
            if (broken && Thread.currentThread().getName().startsWith("spool-subscription-"))
            {
                throw new IllegalStateException("the clock broke");
            }
            return 1_000_000;
        }
    }
}
