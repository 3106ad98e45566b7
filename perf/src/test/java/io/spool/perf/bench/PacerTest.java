package io.spool.perf.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PacerTest
{
    @Test
    void aPacedMessageIsDueItsShareOfASecondAfterTheStartAndIsNotLetGoBefore()
    {
        final long start = System.nanoTime();
        final Pacer pacer = new Pacer(1_000_000, start);

        assertThat(pacer.paced()).isTrue();
        assertThat(pacer.dueNanos(0)).isEqualTo(start);
        assertThat(pacer.dueNanos(1_500)).isEqualTo(start + 1_500_000);
        final long due = pacer.awaitDue(2_000);
        assertThat(due).isEqualTo(start + 2_000_000);
        assertThat(System.nanoTime()).isGreaterThanOrEqualTo(due);
    }

    @Test
    void unpacedEveryMessageIsDueNow()
    {
        final Pacer pacer = new Pacer(0, 0);

        final long before = System.nanoTime();
        final long due = pacer.awaitDue(1_000_000_000L);

        assertThat(pacer.paced()).isFalse();
        assertThat(due).isBetween(before, System.nanoTime());
    }

    @Test
    void aNegativeRateIsRefused()
    {
        assertThatThrownBy(() -> new Pacer(-1, 0)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining(">= 0");
    }
}
