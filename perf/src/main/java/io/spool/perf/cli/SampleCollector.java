package io.spool.perf.cli;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.spool.api.MetricSample;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Hands a server's {@link MetricSample}s to the Prometheus registry at each scrape, one metric family per name.
 * The Prometheus client names a counter without its {@code _total}, and adds it back in the text format. Thread-safe
 * as its supplier is.
 */
final class SampleCollector implements MultiCollector
{
    private static final String TOTAL = "_total";

    private final Supplier<List<MetricSample>> samples;

    SampleCollector(final Supplier<List<MetricSample>> samples)
    {
        this.samples = samples;
    }

    @Override
    public MetricSnapshots collect()
    {
        final Map<String, List<MetricSample>> families = new LinkedHashMap<>();
        for (final MetricSample sample : samples.get())
        {
            families.computeIfAbsent(sample.name(), name -> new ArrayList<>()).add(sample);
        }
        final List<MetricSnapshot> snapshots = new ArrayList<>();
        for (final List<MetricSample> family : families.values())
        {
            snapshots.add(snapshot(family));
        }
        return new MetricSnapshots(snapshots);
    }

    private static MetricSnapshot snapshot(final List<MetricSample> family)
    {
        final MetricSample first = family.get(0);
        if (first.kind() == MetricSample.Kind.COUNTER)
        {
            final String name = first.name().endsWith(TOTAL) ?
                first.name().substring(0, first.name().length() - TOTAL.length()) : first.name();
            final CounterSnapshot.Builder counter = CounterSnapshot.builder().name(name).help(first.help());
            for (final MetricSample sample : family)
            {
                counter.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels(sample))
                    .value(sample.value()).build());
            }
            return counter.build();
        }
        final GaugeSnapshot.Builder gauge = GaugeSnapshot.builder().name(first.name()).help(first.help());
        for (final MetricSample sample : family)
        {
            gauge.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels(sample))
                .value(sample.value()).build());
        }
        return gauge.build();
    }

    private static Labels labels(final MetricSample sample)
    {
        final Labels.Builder labels = Labels.builder();
        sample.labels().forEach(labels::label);
        return labels.build();
    }
}
