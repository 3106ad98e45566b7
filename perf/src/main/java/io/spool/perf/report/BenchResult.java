package io.spool.perf.report;

import java.util.List;

/**
 * The outcome of one {@code spool bench} run: the measured throughput, the raw baseline measured in the same run,
 * and latency percentiles. Immutable.
 *
 * @param benchmark     which benchmark ran, for example {@code "ingest"}.
 * @param partitions    partitions written or read.
 * @param producers     producing threads (1 for a replay).
 * @param durability    the durability policy, as given on the command line.
 * @param measured      what the benchmark measured through Spool.
 * @param baseline      the raw yardstick measured in the same run.
 * @param latency       what {@code latencyPercentiles} measure, for example {@code "publish to confirm"}.
 * @param latencyPercentiles percentiles of that latency.
 * @param fsyncs        fsyncs done during the measured time, or {@link #FSYNCS_NOT_COUNTED}.
 * @param rounds        when Spool and a peer alternated round by round, each round's pair of figures, in order;
 *                      empty otherwise. {@code measured} and {@code baseline} then add up the rounds.
 */
public record BenchResult(
    String benchmark,
    int partitions,
    int producers,
    String durability,
    Throughput measured,
    Throughput baseline,
    String latency,
    LatencySummary latencyPercentiles,
    long fsyncs,
    List<RoundPair> rounds)
{
    public static final long FSYNCS_NOT_COUNTED = -1;

    public BenchResult
    {
        rounds = List.copyOf(rounds);
    }

    /** A result measured in one go, beside its baseline, without alternated rounds. */
    public BenchResult(final String benchmark, final int partitions, final int producers, final String durability,
        final Throughput measured, final Throughput baseline, final String latency,
        final LatencySummary latencyPercentiles, final long fsyncs)
    {
        this(benchmark, partitions, producers, durability, measured, baseline, latency, latencyPercentiles, fsyncs,
            List.of());
    }

    /** Spool's records per second as a fraction of the baseline's. */
    public double ratio()
    {
        return measured.ratioTo(baseline);
    }

    public double fsyncsPerSec()
    {
        return fsyncs * 1e9 / measured.elapsedNanos();
    }
}
