package io.spool.queue;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class DeadlineTimersTest
{
    private static final long START = 1_000_003;

    @Test
    void everyRecordFiresOnceAtTheFirstExpiryAtOrAfterItsDeadlineWhateverTheSpreadAndTheClockJumps()
    {
        final SplittableRandom random = new SplittableRandom(7);
        final InFlightTable records = new InFlightTable();
        final DeadlineTimers timers = new DeadlineTimers(records, START);
        final long[] spreads = {5, 2_000, 600_000, 86_400_000L, SubscriptionPartitionState.MAX_DELAY_MILLIS};
        final long[] deadlines = new long[5_000];
        final Set<Integer> cancelled = new HashSet<>();
        for (int offset = 0; offset < deadlines.length; offset++)
        {
            deadlines[offset] = START + 1 + random.nextLong(spreads[offset % spreads.length]);
            timers.schedule(records.allocate(offset, 1), deadlines[offset]);
        }
        for (int offset = 3; offset < deadlines.length; offset += 7)
        {
            timers.unlink(offset);
            cancelled.add(offset);
        }
        final List<Integer> fired = new ArrayList<>();
        long now = START;
        while (timers.timerCount() > 0)
        {
            final long previous = now;
            now += 1 + random.nextLong(random.nextBoolean() ? 20 : 40_000_000);
            final long at = now;
            fired.clear();
            timers.expireDue(now, fired::add);
            for (final int record : fired)
            {
                assertThat(deadlines[record]).isLessThanOrEqualTo(at).isGreaterThan(previous);
                assertThat(cancelled.add(record)).as("fired twice or after unlink: %d", record).isTrue();
            }
        }
        assertThat(cancelled).hasSize(deadlines.length);
    }

    @Test
    void aRecordScheduledInThePastFiresAtTheNextExpiry()
    {
        final InFlightTable records = new InFlightTable();
        final DeadlineTimers timers = new DeadlineTimers(records, START);
        timers.expireDue(START + 10_000, record -> {});
        timers.schedule(records.allocate(0, 1), START);
        final List<Integer> fired = new ArrayList<>();
        timers.expireDue(START + 10_000, fired::add);
        assertThat(fired).containsExactly(0);
    }
}
