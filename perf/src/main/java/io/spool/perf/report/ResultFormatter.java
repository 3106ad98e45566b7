package io.spool.perf.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Renders a {@link BenchResult} for people (text) or for scripts (one JSON object). Stateless. */
public final class ResultFormatter
{
    private ResultFormatter()
    {
    }

    /**
     * @param environment where it ran (cores, Java, OS, Spool's version and commit), written as the member
     *                    {@code environment}, so that results from different machines can be told apart.
     */
    public static String json(final BenchResult result, final Map<String, ?> environment)
    {
        final Throughput measured = result.measured();
        final Throughput baseline = result.baseline();
        final LatencySummary latency = result.latencyPercentiles();
        final JsonObjectWriter json = new JsonObjectWriter()
            .member("benchmark", result.benchmark())
            .member("records", measured.records())
            .member("payloadBytes", measured.valueBytes())
            .member("partitions", result.partitions())
            .member("producers", result.producers())
            .member("durability", result.durability())
            .member("elapsedMillis", measured.elapsedNanos() / 1_000_000)
            .member("recordsPerSec", measured.recordsPerSec())
            .member("mbPerSec", measured.mbPerSec())
            .member("baseline", baseline.name())
            .member("baselineRecords", baseline.records())
            .member("baselineRecordsPerSec", baseline.recordsPerSec())
            .member("baselineMbPerSec", baseline.mbPerSec())
            .member("ratio", result.ratio())
            .member("latency", result.latency())
            .member("latencySamples", latency.samples())
            .member("p50Micros", latency.p50Micros())
            .member("p99Micros", latency.p99Micros())
            .member("p999Micros", latency.p999Micros())
            .member("maxMicros", latency.maxMicros());
        if (result.fsyncs() != BenchResult.FSYNCS_NOT_COUNTED)
        {
            json.member("fsyncs", result.fsyncs()).member("fsyncsPerSec", result.fsyncsPerSec());
        }
        if (!result.rounds().isEmpty())
        {
            final List<Map<String, Object>> rounds = new ArrayList<>();
            for (final RoundPair round : result.rounds())
            {
                final Map<String, Object> pair = new LinkedHashMap<>();
                pair.put("recordsPerSec", round.measured().recordsPerSec());
                pair.put("baselineRecordsPerSec", round.baseline().recordsPerSec());
                pair.put("ratio", round.ratio());
                pair.put("spoolFirst", round.spoolFirst());
                rounds.add(pair);
            }
            json.member("rounds", rounds);
        }
        return json.member("environment", environment).toJson();
    }

    public static String text(final BenchResult result)
    {
        final Throughput measured = result.measured();
        final Throughput baseline = result.baseline();
        final LatencySummary latency = result.latencyPercentiles();
        final StringBuilder text = new StringBuilder(512);
        text.append(format("spool bench %s: %,d records of %d B, %d partition(s), %d producer(s), durability %s%n",
            result.benchmark(), measured.records(), measured.valueBytes(), result.partitions(), result.producers(),
            result.durability()));
        text.append(format("  spool         %,14.0f records/s  %,9.1f MB/s  (%s, %,.3f s)%n",
            measured.recordsPerSec(), measured.mbPerSec(), measured.name(), measured.elapsedNanos() / 1e9));
        text.append(format("  baseline      %,14.0f records/s  %,9.1f MB/s  (%s, %,d records, same run)%n",
            baseline.recordsPerSec(), baseline.mbPerSec(), baseline.name(), baseline.records()));
        text.append(format("  ratio         %14.3g of baseline%n", result.ratio()));
        text.append(format("  latency (%s, %,d samples): p50 %,.1f us  p99 %,.1f us  p99.9 %,.1f us  max %,.1f us%n",
            result.latency(), latency.samples(), latency.p50Micros(), latency.p99Micros(), latency.p999Micros(),
            latency.maxMicros()));
        if (result.fsyncs() != BenchResult.FSYNCS_NOT_COUNTED)
        {
            text.append(format("  fsyncs        %,14d  (%,.0f /s)%n", result.fsyncs(), result.fsyncsPerSec()));
        }
        for (int i = 0; i < result.rounds().size(); i++)
        {
            final RoundPair round = result.rounds().get(i);
            text.append(format("  round %-3d     spool %,14.0f records/s  baseline %,14.0f records/s  ratio %.3g%s%n",
                i + 1, round.measured().recordsPerSec(), round.baseline().recordsPerSec(), round.ratio(),
                round.spoolFirst() ? "" : "  (baseline first)"));
        }
        return text.toString();
    }

    private static String format(final String format, final Object... args)
    {
        return String.format(Locale.ROOT, format, args);
    }
}
