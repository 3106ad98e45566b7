package io.spool.perf.bench;

import io.spool.api.log.LogConfig;
import io.spool.api.stream.TopicConfig;
import io.spool.perf.report.BenchResult;
import io.spool.perf.report.BenchRun;
import io.spool.perf.report.LatencyDistribution;
import io.spool.perf.report.LatencySummary;
import io.spool.perf.report.PeriodicLine;
import io.spool.perf.report.Throughput;
import io.spool.perf.report.ThroughputSeries;
import io.spool.wire.client.SpoolClient;
import org.HdrHistogram.AtomicHistogram;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One run against a running server: a topic of its own (deleted afterwards), the paced publisher on one
 * connection, consumers on connections of their own that take what it publishes at the same time, a progress line
 * every few seconds, and the results: publish (confirmed beside offered or target rate, publish-to-confirm
 * latency) and consume (taken beside confirmed, publish-to-delivery latency). Not thread-safe: one run.
 */
final class RemoteRun
{
    private static final long AWAIT_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** What the consumers of a run do and report; their threads or listeners are theirs to run. */
    interface Consumers extends AutoCloseable
    {
        /** Messages taken (and acked, for a queue) so far; read from other threads. */
        long taken();

        /** Publish-to-delivery latency, from each record's due time. */
        AtomicHistogram latency();

        @Override
        void close();
    }

    private final RemoteLoad load;
    private final String bench;
    private final String configuration;
    private final PrintWriter progress;

    /**
     * @param bench         the benchmark: {@code wire}, {@code queue}.
     * @param configuration what runs, for messages and results: {@code 1 connection},
     *                      {@code push, prefetch 100, 1 consumer(s)}.
     */
    RemoteRun(final RemoteLoad load, final String bench, final String configuration, final PrintWriter progress)
    {
        this.load = load;
        this.bench = bench;
        this.configuration = configuration;
        this.progress = progress;
    }

    /** The name of one of the run's results: {@code queue acked (push, prefetch 100, 1 consumer(s), server ...)}. */
    private String resultName(final String what)
    {
        return bench + " " + what + " (" + configuration + ", " + load.serverName() + ")";
    }

    /** A fresh topic name, so that runs never share records. */
    static String freshName(final String prefix)
    {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Creates the run's topic on the server, as the load asks. */
    void createTopic(final SpoolClient admin, final String topic)
    {
        admin.admin().createTopic(topic, new TopicConfig(load.partitions(),
            LogConfig.builder().durability(load.durability()).build()));
    }

    /**
     * Publishes while {@code consumers} take, then waits for them to take everything confirmed.
     *
     * @return the publish result, then the consume result.
     */
    List<BenchRun> run(final SpoolClient producerClient, final String topic, final Consumers consumers,
        final String consumeWhat)
    {
        final PacedPublisher publisher = new PacedPublisher();
        final long start = System.nanoTime();
        final ThroughputSampler confirmedSeries = ThroughputSampler.start("confirmed", publisher::confirmed);
        final ThroughputSampler takenSeries = ThroughputSampler.start(consumeWhat, consumers::taken);
        final PacedPublisher.Outcome published;
        final long takenNanos;
        final Progress line = new Progress(publisher, consumers);
        try (PeriodicLine ignored = PeriodicLine.start(load.progressNanos(), line::at, progress))
        {
            published = publisher.publish(producerClient, topic, load);
            takenNanos = awaitTaken(consumers, published.records());
        }
        final ThroughputSeries confirmedRates = confirmedSeries.stop();
        final ThroughputSeries takenRates = takenSeries.stop();
        final long taken = consumers.taken();
        if (taken < published.records())
        {
            progress.println(String.format(Locale.ROOT, "bench %s (%s): the consumers took %,d of the %,d records " +
                "published within %d s after the producer stopped; the consume figures count those", bench, configuration,
                taken,
                published.records(), TimeUnit.NANOSECONDS.toSeconds(RemoteLoad.DRAIN_LIMIT_NANOS)));
            progress.flush();
        }
        final Throughput confirmed = new Throughput("confirmed by " + load.serverName(), published.records(),
            load.payloadBytes(), published.confirmedNanos() - start);
        final Throughput offered = load.rate() > 0 ?
            new Throughput("target rate", published.records(), load.payloadBytes(),
                Math.max(1, (long)(published.records() * 1e9 / load.rate()))) :
            new Throughput("offered: handed to the producer", published.records(), load.payloadBytes(),
                published.sentNanos() - start);
        final AtomicHistogram confirmLatency = publisher.confirmLatency();
        final AtomicHistogram takeLatency = consumers.latency();
        return List.of(
            new BenchRun(new BenchResult(resultName("publish"), load.partitions(), 1,
                load.durability().toString(), confirmed, offered, "publish to confirm, one in " +
                PacedPublisher.LATENCY_SAMPLE_EVERY + ", from when due", LatencySummary.ofNanos(confirmLatency),
                BenchResult.FSYNCS_NOT_COUNTED), List.of(confirmedRates), LatencyDistribution.ofNanos(confirmLatency)),
            new BenchRun(new BenchResult(resultName(consumeWhat),
                load.partitions(), 1, load.durability().toString(),
                new Throughput(consumeWhat, taken, load.payloadBytes(), Math.max(1, takenNanos - start)), confirmed,
                "publish to delivery, from when due", LatencySummary.ofNanos(takeLatency),
                BenchResult.FSYNCS_NOT_COUNTED), List.of(takenRates), LatencyDistribution.ofNanos(takeLatency)));
    }

    /** Waits, parking, until the consumers took {@code records} or the drain limit passed; returns when. */
    private static long awaitTaken(final Consumers consumers, final long records)
    {
        final long deadline = System.nanoTime() + RemoteLoad.DRAIN_LIMIT_NANOS;
        long lastTaken = consumers.taken();
        long lastChange = System.nanoTime();
        while (consumers.taken() < records && System.nanoTime() < deadline)
        {
            LockSupport.parkNanos(AWAIT_PARK_NANOS);
            final long taken = consumers.taken();
            if (taken != lastTaken)
            {
                lastTaken = taken;
                lastChange = System.nanoTime();
            }
        }
        return consumers.taken() >= records ? System.nanoTime() : lastChange;
    }

    /** The progress line: totals, and the rates since the line before. Not thread-safe: the printing thread's. */
    private final class Progress
    {
        private final PacedPublisher publisher;
        private final Consumers consumers;
        private long lastNanos;
        private long lastConfirmed;
        private long lastTaken;

        Progress(final PacedPublisher publisher, final Consumers consumers)
        {
            this.publisher = publisher;
            this.consumers = consumers;
        }

        String at(final long elapsedNanos)
        {
            final long confirmed = publisher.confirmed();
            final long taken = consumers.taken();
            final double seconds = Math.max(1, elapsedNanos - lastNanos) / 1e9;
            final String line = String.format(Locale.ROOT, "bench %s (%s): %.1f s: sent %,d, confirmed %,d " +
                "(%,.0f/s), taken %,d (%,.0f/s)", bench, configuration, elapsedNanos / 1e9, publisher.sent(), confirmed,
                (confirmed - lastConfirmed) / seconds, taken, (taken - lastTaken) / seconds);
            lastNanos = elapsedNanos;
            lastConfirmed = confirmed;
            lastTaken = taken;
            return line;
        }
    }
}
