package io.spool.perf.bench;

import io.spool.perf.report.ThroughputSeries;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Times full read passes over the same records: one untimed pass of each reader first (JIT and page cache warm),
 * then the readers' passes in alternation until each has been timed for at least {@link #MIN_TIMED_NANOS}.
 * Alternating puts the raw scan and the replay under the same load from a busy machine, which a scan-then-replay
 * order would not; and no single pass of a few milliseconds decides a figure. Stateless.
 */
final class PassTimer
{
    static final long MIN_TIMED_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    /**
     * One reader to time.
     *
     * @param what     names the reader in errors.
     * @param pass     reads every record once and returns how many it read.
     * @param records  how many every pass must read.
     * @param warmedUp runs between the warm-up pass and the timed ones, to forget what the warm-up recorded.
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
        for (final Reader reader : readers)
        {
            runChecked(reader);
            reader.warmedUp().run();
        }
        final int[] passes = new int[readers.length];
        final long[] elapsed = new long[readers.length];
        final PassLog[] logs = new PassLog[readers.length];
        for (int i = 0; i < readers.length; i++)
        {
            logs[i] = new PassLog();
        }
        final long timedStart = System.nanoTime();
        boolean enough;
        do
        {
            enough = true;
            for (int i = 0; i < readers.length; i++)
            {
                final long start = System.nanoTime();
                runChecked(readers[i]);
                final long end = System.nanoTime();
                elapsed[i] += end - start;
                passes[i]++;
                logs[i].add(end - timedStart, end - start);
                enough &= elapsed[i] >= MIN_TIMED_NANOS;
            }
        }
        while (!enough);

        final Timing[] timings = new Timing[readers.length];
        for (int i = 0; i < readers.length; i++)
        {
            timings[i] = new Timing(passes[i], Math.max(1, elapsed[i] / passes[i]),
                logs[i].throughput(readers[i].what(), readers[i].records()));
        }
        return timings;
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

        void add(final long end, final long duration)
        {
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
