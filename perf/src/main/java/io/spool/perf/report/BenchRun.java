package io.spool.perf.report;

import java.util.List;

/**
 * A benchmark's result with what its report draws: throughput over the run and the latency percentile curve.
 * Immutable.
 *
 * @param result     the figures printed as text or JSON.
 * @param throughput sampled throughput of the measured part, one series per thing measured over time.
 * @param latency    the percentile curve of {@code result}'s latency.
 */
public record BenchRun(BenchResult result, List<ThroughputSeries> throughput, LatencyDistribution latency)
{
    public BenchRun
    {
        throughput = List.copyOf(throughput);
    }
}
