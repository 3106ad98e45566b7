package io.spool.perf.bench;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Times full read passes over the same records: one untimed pass first (JIT and page cache warm), then timed
 * passes until at least {@link #MIN_TIMED_NANOS} have gone by, so that one pass of a few milliseconds on a busy
 * machine does not decide the figure. The raw scan and the replay are timed the same way. Stateless.
 */
final class PassTimer
{
    static final long MIN_TIMED_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    /**
     * @param passes        timed passes.
     * @param meanPassNanos their mean duration.
     */
    record Timing(int passes, long meanPassNanos)
    {
    }

    private PassTimer()
    {
    }

    /**
     * @param pass     reads every record once and returns how many it read.
     * @param records  how many every pass must read.
     * @param warmedUp runs between the warm-up pass and the timed ones, to forget what the warm-up recorded.
     * @throws IllegalStateException when a pass reads another number of records.
     */
    static Timing time(final String what, final LongSupplier pass, final long records, final Runnable warmedUp)
    {
        check(what, pass.getAsLong(), records);
        warmedUp.run();
        final long start = System.nanoTime();
        int passes = 0;
        long elapsed;
        do
        {
            check(what, pass.getAsLong(), records);
            passes++;
            elapsed = System.nanoTime() - start;
        }
        while (elapsed < MIN_TIMED_NANOS);
        return new Timing(passes, Math.max(1, elapsed / passes));
    }

    private static void check(final String what, final long read, final long records)
    {
        if (read != records)
        {
            throw new IllegalStateException(what + " read " + read + " records, " + records + " were written");
        }
    }
}
