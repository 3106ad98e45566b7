package io.spool.perf.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The warm-up's end on a hand-moved clock and compiler. */
class JitWarmUpTest
{
    private long now = 1_000;
    private long compiled = 500;

    @Test
    void endsAfterTheMinimumOnceTheCompilerHasBeenQuietForSomeRounds()
    {
        final JitWarmUp warmUp = new JitWarmUp(100, 10_000, () -> now, () -> compiled);
        assertThat(warmUp.roundWasWarmUp()).as("the first round always is").isTrue();
        for (int i = 0; i < JitWarmUp.QUIET_ROUNDS; i++)
        {
            assertThat(warmUp.roundWasWarmUp()).as("quiet, but before the minimum").isTrue();
        }
        now += 100;
        compiled += 3;
        assertThat(warmUp.roundWasWarmUp()).as("past the minimum, but the compiler worked").isTrue();
        for (int i = 1; i < JitWarmUp.QUIET_ROUNDS; i++)
        {
            assertThat(warmUp.roundWasWarmUp()).as("quiet round %d", i).isTrue();
        }
        assertThat(warmUp.roundWasWarmUp()).as("the round that makes it quiet enough is still warm-up").isTrue();
        assertThat(warmUp.roundWasWarmUp()).as("timed from here").isFalse();
        compiled += 50;
        assertThat(warmUp.roundWasWarmUp()).as("a later compilation does not restart the warm-up").isFalse();
    }

    @Test
    void endsAtTheMaximumWhateverTheCompilerDoes()
    {
        final JitWarmUp warmUp = new JitWarmUp(100, 1_000, () -> now, () -> compiled);
        assertThat(warmUp.roundWasWarmUp()).isTrue();
        now += 999;
        compiled++;
        assertThat(warmUp.roundWasWarmUp()).isTrue();
        now += 1;
        compiled++;
        assertThat(warmUp.roundWasWarmUp()).as("the maximum is reached in this round").isTrue();
        assertThat(warmUp.roundWasWarmUp()).isFalse();
    }

    @Test
    void withoutAMinimumOnlyTheFirstRoundAndTheQuietOnesWarmUp()
    {
        final JitWarmUp warmUp = new JitWarmUp(0, 0, () -> now, () -> compiled);
        assertThat(warmUp.roundWasWarmUp()).as("the maximum is the minimum: the first round ends it").isTrue();
        assertThat(warmUp.roundWasWarmUp()).isFalse();
    }
}
