package io.spool.queue.internal.table;

import io.spool.api.queue.RetryPolicy;
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
        final long[] spreads = {5, 2_000, 600_000, 86_400_000L, RetryPolicy.MAX_DELAY_MILLIS};
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
            timers.expireDue(now, 0, fired::add);
            for (final int record : fired)
            {
                assertThat(deadlines[record]).isLessThanOrEqualTo(at).isGreaterThan(previous);
                assertThat(cancelled.add(record)).as("fired twice or after unlink: %d", record).isTrue();
            }
        }
        assertThat(cancelled).hasSize(deadlines.length);
    }

    /**
     * A record's expiry may end others due in the same tick (an ordered group's run: the head went dead on its
     * delivery limit, so the members behind it come back with it): their timers go and their records are freed
     * while the tick's list is being fired, and the firing must neither follow their links nor fire them.
     */
    @Test
    void aRecordThatAnEarlierExpiryOfTheSameTickUnlinksAndFreesIsNotFired()
    {
        final InFlightTable records = new InFlightTable();
        final DeadlineTimers timers = new DeadlineTimers(records, START);
        for (int offset = 0; offset < 4; offset++)
        {
            timers.schedule(records.allocate(offset, 1), START + 5);
        }
        final List<Integer> fired = new ArrayList<>();

        final int expired = timers.expireDue(START + 5, 0, record ->
        {
            fired.add(record);
            for (int offset = 0; offset < 4; offset++)
            {
                final int other = records.recordAt(offset);
                if (other != InFlightTable.NIL && other != record)
                {
                    timers.unlink(other);
                    records.free(other);
                }
            }
            records.free(record);
        });

        assertThat(fired).hasSize(1);
        assertThat(expired).isEqualTo(1);
        assertThat(timers.timerCount()).isZero();
    }

    @Test
    void aRecordScheduledInThePastFiresAtTheNextExpiry()
    {
        final InFlightTable records = new InFlightTable();
        final DeadlineTimers timers = new DeadlineTimers(records, START);
        timers.expireDue(START + 10_000, 0, record -> {});
        timers.schedule(records.allocate(0, 1), START);
        final List<Integer> fired = new ArrayList<>();
        timers.expireDue(START + 10_000, 0, fired::add);
        assertThat(fired).containsExactly(0);
    }

    @Test
    void aRunExpiresAtItsDeadlineTheRecordsThatStillHaveItAndNoOther()
    {
        final InFlightTable records = new InFlightTable();
        final DeadlineTimers timers = new DeadlineTimers(records, START);
        final long deadline = START + 30_000;
        assertThat(timers.takesRunUntil(deadline)).isTrue();
        // Across the boundary of two pages of records.
        timers.holdRun(1_020, 10, 6, deadline);
        assertThat(records.size()).isEqualTo(10);
        for (long offset = 1_020; offset < 1_030; offset++)
        {
            final int record = records.recordAt(offset);
            assertThat(record).isNotEqualTo(InFlightTable.NIL);
            assertThat(records.consumer(record)).isEqualTo(6);
            assertThat(records.deadline(record)).isEqualTo(deadline);
        }
        timers.unlink(1_022);
        records.free(1_022);
        timers.unlink(1_025);
        timers.schedule(1_025, deadline + 60_000);
        timers.unlink(1_027);
        assertThat(timers.timerCount()).isEqualTo(8);

        final List<Integer> fired = new ArrayList<>();
        timers.expireDue(deadline - 1, 0, fired::add);
        assertThat(fired).isEmpty();
        timers.expireDue(deadline, 0, fired::add);
        assertThat(fired).containsExactly(1_020, 1_021, 1_023, 1_024, 1_026, 1_028, 1_029);
        assertThat(timers.timerCount()).isEqualTo(1);
        fired.clear();
        timers.expireDue(deadline + 60_000, 0, fired::add);
        assertThat(fired).containsExactly(1_025);
    }

    @Test
    void onlyALockEndingNoEarlierThanTheQueuedRunsMayJoinThemAndRunsBelowTheFloorLeave()
    {
        final InFlightTable records = new InFlightTable();
        final DeadlineTimers timers = new DeadlineTimers(records, START);
        timers.holdRun(0, 1_000, 1, START + 500);
        timers.holdRun(1_000, 1_000, 1, START + 900);
        assertThat(timers.takesRunUntil(START + 899)).isFalse();
        assertThat(timers.takesRunUntil(START + 900)).isTrue();
        final long withRuns = timers.footprintBytes();

        for (int i = 0; i < 200; i++)
        {
            timers.holdRun(2_000 + i * 10L, 5, 1, START + 1_000 + i);
        }
        final long grown = timers.footprintBytes();
        assertThat(grown).as("grown for 202 runs").isGreaterThan(withRuns);
        timers.expireDue(START, 4_000, record -> {});
        for (int i = 0; i < 200; i++)
        {
            timers.holdRun(4_000 + i * 10L, 5, 1, START + 2_000 + i);
        }
        assertThat(timers.footprintBytes()).as("the room of the runs below the floor reused").isEqualTo(grown);
    }
}
