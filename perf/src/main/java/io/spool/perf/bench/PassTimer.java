package io.spool.perf.bench;

import io.spool.perf.report.ThroughputSeries;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Times full read passes over the same records: untimed passes of the readers in alternation first, until each has
 * run for at least {@link #MIN_WARM_UP_NANOS} (JIT and page cache warm), then timed passes in alternation until each
 * has been timed for at least {@link #MIN_TIMED_NANOS}.
 * Alternating puts the raw scan and the replay under the same load from a busy machine, which a scan-then-replay
 * order would not; and no single pass of a few milliseconds decides a figure. Stateless.
 */
final class PassTimer
{
    static final long MIN_TIMED_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    /**
     * One warm-up pass was not enough: a long replay polls only tens of thousands of times a pass, so the JIT
     * compiles its poll loop only during the second or third pass, and the second pass's seek back to the start is
     * the first the compiled reader meets, which sends it back to the interpreter; the first timed pass then ran
     * well below the later ones and pulled the mean down.
     */
    static final long MIN_WARM_UP_NANOS = MIN_TIMED_NANOS;

    /**
     * One reader to time.
     *
     * @param what     names the reader in errors.
     * @param pass     reads every record once and returns how many it read.
     * @param records  how many every pass must read.
     * @param warmedUp runs between the warm-up passes and the timed ones, to forget what the warm-up recorded.
     */
    record Reader(String what, LongSupplier pass, long records, Runnable warmedUp)
    {
    }

    /**
     * @param passes        timed passes.
     * @param meanPassNanos their mean duration.
     * @param throughput    the rate of each timed pass, at the time it ended from the start of the timed passes.
     */
    record Timing(int passes, long meanPassNanos, ThroughputSeries throughput)
    {
    }

    private PassTimer()
    {
    }

    /**
     * @return the timing of each reader, in the order given.
     * @throws IllegalStateException when a pass reads another number of records than its reader must.
     */
    static Timing[] timeAlternately(final Reader... readers)
    {
        runAlternately(readers, MIN_WARM_UP_NANOS);
        for (final Reader reader : readers)
        {
            reader.warmedUp().run();
        }
        final PassLog[] logs = runAlternately(readers, MIN_TIMED_NANOS);
        final Timing[] timings = new Timing[readers.length];
        for (int i = 0; i < readers.length; i++)
        {
            timings[i] = new Timing(logs[i].passes(), Math.max(1, logs[i].elapsedNanos() / logs[i].passes()),
                logs[i].throughput(readers[i].what(), readers[i].records()));
        }
        return timings;
    }

    /** Runs the readers' passes in alternation until each has run for at least {@code minNanos}. */
    private static PassLog[] runAlternately(final Reader[] readers, final long minNanos)
    {
        final PassLog[] logs = new PassLog[readers.length];
        for (int i = 0; i < readers.length; i++)
        {
            logs[i] = new PassLog();
        }
        final long firstStart = System.nanoTime();
        boolean enough;
        do
        {
            enough = true;
            for (int i = 0; i < readers.length; i++)
            {
                final long start = System.nanoTime();
                runChecked(readers[i]);
                final long end = System.nanoTime();
                logs[i].add(end - firstStart, end - start);
                enough &= logs[i].elapsedNanos() >= minNanos;
            }
        }
        while (!enough);
        return logs;
    }

    /**
     * When each pass ended and how long it took, in arrays allocated up front: when they are full, neighbouring
     * entries are merged in pairs, so thousands of short passes still fit and nothing is allocated between them.
     */
    private static final class PassLog
    {
        private static final int CAPACITY = 1024;

        private final long[] endNanos = new long[CAPACITY];
        private final long[] durationNanos = new long[CAPACITY];
        private final int[] passes = new int[CAPACITY];
        private int count;
        private int totalPasses;
        private long elapsedNanos;

        void add(final long end, final long duration)
        {
            totalPasses++;
            elapsedNanos += duration;
            if (count == CAPACITY)
            {
                mergePairs();
            }
            endNanos[count] = end;
            durationNanos[count] = duration;
            passes[count] = 1;
            count++;
        }

        private void mergePairs()
        {
            for (int i = 0; i < count / 2; i++)
            {
                endNanos[i] = endNanos[2 * i + 1];
                durationNanos[i] = durationNanos[2 * i] + durationNanos[2 * i + 1];
                passes[i] = passes[2 * i] + passes[2 * i + 1];
            }
            count /= 2;
        }

        int passes()
        {
            return totalPasses;
        }

        long elapsedNanos()
        {
            return elapsedNanos;
        }

        ThroughputSeries throughput(final String name, final long records)
        {
            final double[] seconds = new double[count];
            final double[] rates = new double[count];
            for (int i = 0; i < count; i++)
            {
                seconds[i] = endNanos[i] / 1e9;
                rates[i] = records * passes[i] * 1e9 / Math.max(1, durationNanos[i]);
            }
            return new ThroughputSeries(name, seconds, rates);
        }
    }

    private static void runChecked(final Reader reader)
    {
        final long read = reader.pass().getAsLong();
        if (read != reader.records())
        {
            throw new IllegalStateException(
                reader.what() + " read " + read + " records, " + reader.records() + " were written");
        }
    }
}
