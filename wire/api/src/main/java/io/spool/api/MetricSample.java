package io.spool.api;


import java.util.Map;
import java.util.Objects;

/**
 * One figure of a running engine, as Prometheus names them: {@code spool_partition_end_offset{topic="orders",
 * partition="3"} 1042}. A counter only grows while the engine runs (its rate is what one reads); a gauge is a
 * level. The same samples come from {@code Spool.metrics}, from a server (with its connections and requests) and
 * over the wire, and {@code spool server --metrics-port} serves them as Prometheus text. Immutable, thread-safe.
 *
 * @param name   the metric's name, in Prometheus's form (counters end in {@code _total}).
 * @param kind   counter or gauge.
 * @param help   what it measures, in a sentence.
 * @param labels what the sample is of (topic and partition, subscription, group, operation), in a stable order.
 * @param value  the figure.
 */
public record MetricSample(String name, Kind kind, String help, Map<String, String> labels, double value)
{
    /** How a figure behaves over time. */
    public enum Kind
    {
        COUNTER,
        GAUGE
    }

    public MetricSample
    {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(help, "help");
        labels = Map.copyOf(labels);
    }

    public static MetricSample gauge(final String name, final String help, final Map<String, String> labels,
        final double value)
    {
        return new MetricSample(name, Kind.GAUGE, help, labels, value);
    }

    public static MetricSample counter(final String name, final String help, final Map<String, String> labels,
        final double value)
    {
        return new MetricSample(name, Kind.COUNTER, help, labels, value);
    }

    /** The value of the sample labelled {@code labels} exactly, or NaN when there is none. For readers and tests. */
    public static double valueOf(final Iterable<MetricSample> samples, final String name,
        final Map<String, String> labels)
    {
        for (final MetricSample sample : samples)
        {
            if (sample.name.equals(name) && sample.labels.equals(labels))
            {
                return sample.value;
            }
        }
        return Double.NaN;
    }
}
