package io.spool.perf.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.function.LongSupplier;

/**
 * Decides when a benchmark's untimed rounds may end: once a minimum time has passed and the JIT has compiled
 * nothing for {@link #QUIET_ROUNDS} rounds in a row, or at a maximum time whatever the JIT does. Not thread-safe:
 * one per configuration being measured.
 * <p>
 * Design note: a fixed second of warm-up was enough for one queue consumer but not for four. Run twice in one
 * process, the same four-consumer configuration drained far slower the first time than the second: with five busy
 * threads on two cores the compiler threads get little CPU, and the timed rounds began before the JIT had settled.
 */
final class JitWarmUp
{
    /** Rounds in a row without a millisecond of compilation that mean the JIT has settled. */
    static final int QUIET_ROUNDS = 3;

    private final LongSupplier nanoTime;
    private final LongSupplier compiledMillis;
    private final long earliestEnd;
    private final long latestEnd;
    private long lastCompiledMillis = Long.MIN_VALUE;
    private int quietRounds;
    private boolean over;

    /**
     * @param compiledMillis the JIT's total compilation time so far, or a constant when the JVM does not say
     */
    JitWarmUp(final long minNanos, final long maxNanos, final LongSupplier nanoTime, final LongSupplier compiledMillis)
    {
        this.nanoTime = nanoTime;
        this.compiledMillis = compiledMillis;
        final long now = nanoTime.getAsLong();
        this.earliestEnd = now + minNanos;
        this.latestEnd = now + Math.max(minNanos, maxNanos);
    }

    /** On this JVM's clock and compiler. */
    static JitWarmUp of(final long minNanos, final long maxNanos)
    {
        final CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
        final LongSupplier compiled = compiler != null && compiler.isCompilationTimeMonitoringSupported() ?
            compiler::getTotalCompilationTime : () -> 0;
        return new JitWarmUp(minNanos, maxNanos, System::nanoTime, compiled);
    }

    /**
     * Called once a round has run.
     *
     * @return whether that round was part of the warm-up (and is not to be timed); the first round always is.
     */
    boolean roundWasWarmUp()
    {
        if (over)
        {
            return false;
        }
        final long compiled = compiledMillis.getAsLong();
        quietRounds = compiled == lastCompiledMillis ? quietRounds + 1 : 0;
        lastCompiledMillis = compiled;
        final long now = nanoTime.getAsLong();
        over = now - latestEnd >= 0 || now - earliestEnd >= 0 && quietRounds >= QUIET_ROUNDS;
        return true;
    }
}
