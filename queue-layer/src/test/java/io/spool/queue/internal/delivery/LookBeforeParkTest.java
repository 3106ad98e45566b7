package io.spool.queue.internal.delivery;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The look-again budget on a hand-moved nanosecond clock. */
class LookBeforeParkTest
{
    private long now = 1_000;
    private final LookBeforePark look = new LookBeforePark(() -> now);

    @Test
    void aThreadThatDidWorkLooksAgainUntilItsBudgetIsSpentThenParks()
    {
        look.workDone();
        assertThat(look.lookAgain()).isTrue();
        now += LookBeforePark.LOOK_NANOS - 1;
        assertThat(look.lookAgain()).isTrue();
        now += 1;
        assertThat(look.lookAgain()).isFalse();
    }

    @Test
    void aThreadThatParkedAndFoundNoWorkParksAgainAtOnce()
    {
        assertThat(look.lookAgain()).as("no work yet").isFalse();
        look.workDone();
        now += LookBeforePark.LOOK_NANOS;
        assertThat(look.lookAgain()).isTrue();
        now += LookBeforePark.LOOK_NANOS;
        assertThat(look.lookAgain()).isFalse();
        assertThat(look.lookAgain()).as("after the park, before any work").isFalse();
    }

    @Test
    void workDuringTheLooksStartsAFreshBudget()
    {
        look.workDone();
        assertThat(look.lookAgain()).isTrue();
        now += LookBeforePark.LOOK_NANOS - 1;
        look.workDone();
        assertThat(look.lookAgain()).isTrue();
        now += LookBeforePark.LOOK_NANOS - 1;
        assertThat(look.lookAgain()).isTrue();
    }
}
