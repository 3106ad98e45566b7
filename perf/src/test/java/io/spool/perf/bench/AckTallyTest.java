package io.spool.perf.bench;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class AckTallyTest
{
    @Test
    void theTotalAddsUpEveryConsumersCount()
    {
        final AckTally tally = new AckTally(3);
        tally.increment(0);
        tally.increment(2);
        tally.increment(2);
        assertThat(tally.total()).isEqualTo(3);
    }

    @Test
    void awaitingReturnsAtOnceOnceTheTargetIsReachedAndReportsATargetNeverReached()
    {
        final AckTally tally = new AckTally(1);
        tally.increment(0);
        assertThat(tally.awaitTotal(1, 0, TimeUnit.NANOSECONDS)).isTrue();
        assertThat(tally.awaitTotal(2, 0, TimeUnit.NANOSECONDS)).isFalse();
    }

    @Test
    void countsFromSeveralConsumerThreadsAreAllSeenByTheWaitingThread() throws InterruptedException
    {
        final int consumers = 4;
        final int acksEach = 100_000;
        final AckTally tally = new AckTally(consumers);
        final Thread[] threads = new Thread[consumers];
        for (int c = 0; c < consumers; c++)
        {
            final int counter = c;
            threads[c] = new Thread(() ->
            {
                for (int i = 0; i < acksEach; i++)
                {
                    tally.increment(counter);
                }
            });
            threads[c].start();
        }
        assertThat(tally.awaitTotal((long)consumers * acksEach, 1, TimeUnit.MINUTES)).isTrue();
        for (final Thread thread : threads)
        {
            thread.join();
        }
        assertThat(tally.total()).isEqualTo((long)consumers * acksEach);
    }
}
