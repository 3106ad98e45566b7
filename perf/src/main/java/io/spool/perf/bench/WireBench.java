package io.spool.perf.bench;

import io.spool.Spool;
import io.spool.api.SpoolException;
import io.spool.api.stream.PublishListener;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicPartition;
import io.spool.perf.report.BenchResult;
import io.spool.perf.report.BenchRun;
import io.spool.perf.report.LatencyDistribution;
import io.spool.perf.report.LatencySummary;
import io.spool.perf.report.Throughput;
import io.spool.perf.report.ThroughputSeries;
import io.spool.stream.ConsumerConfig;
import io.spool.stream.StreamConsumer;
import io.spool.stream.StreamProducer;
import io.spool.wire.client.ClientConfig;
import io.spool.wire.client.ProducerConfig;
import io.spool.wire.client.RemoteProducer;
import io.spool.wire.client.RemoteStreamConsumer;
import io.spool.wire.client.SpoolClient;
import io.spool.wire.server.ServerConfig;
import io.spool.wire.server.SpoolServer;
import org.HdrHistogram.AtomicHistogram;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * {@code spool bench wire}: records published with confirms through one client connection to a server on loopback
 * (in this process) and read back by fetch over it, each beside the same work done through the server's own engine
 * in the same run: the embedded producer publishing as many records, the embedded stream consumer polling them.
 * <p>
 * Design note: the remote and embedded sides take turns inside each round, the side going first alternating from
 * round to round, so a change of load on a busy machine weighs on both; warm-up rounds run the same code first and
 * are not counted, so neither side is measured while the JIT compiles it. Every round writes fresh topics, deleted
 * after it. Stateless: one run at a time.
 */
public final class WireBench
{
    public static final String NAME = "wire";
    /** Every this many records, the publish time of one is kept for its publish-to-confirm latency. */
    private static final int LATENCY_SAMPLE_EVERY = 64;
    private static final int MAX_RECORDS_PER_POLL = 10_000;
    private static final int MAX_POLL_BYTES = 1 << 20;
    private static final Duration POLL_TIMEOUT = Duration.ofSeconds(1);
    private static final long AWAIT_PARK_NANOS = 20_000;

    private WireBench()
    {
    }

    /** What a run measures and how. */
    public record Settings(Path dataDirectory, long records, int payloadBytes, int batchBytes, int rounds,
        int warmupRounds)
    {
        public Settings
        {
            if (records < 1 || records > Integer.MAX_VALUE || payloadBytes < 0 ||
                payloadBytes > BenchSettings.MAX_PAYLOAD_BYTES || batchBytes < 1 || rounds < 1 || warmupRounds < 0)
            {
                throw new IllegalArgumentException("records must be from 1 to " + Integer.MAX_VALUE +
                    ", payload bytes from 0 to " + BenchSettings.MAX_PAYLOAD_BYTES + ", batch bytes and rounds at " +
                    "least 1 and warm-up rounds at least 0; were " + records + ", " + payloadBytes + ", " + batchBytes +
                    ", " + rounds + " and " + warmupRounds);
            }
        }
    }

    /**
     * @return the publish result, then the consume result, each over the measured rounds beside its embedded
     *         counterpart of the same rounds.
     */
    public static List<BenchRun> run(final Settings settings, final PrintWriter progressOut)
    {
        final Sums publish = new Sums(settings.rounds());
        final Sums consume = new Sums(settings.rounds());
        final AtomicHistogram confirmLatency = LatencyHistograms.newHistogram();
        final AtomicHistogram pollLatency = LatencyHistograms.newHistogram();
        try (ScratchDirectory directory = ScratchDirectory.create(settings.dataDirectory(), "bench-wire");
            Spool spool = Spool.builder(directory.path()).backgroundMaintenance(false).open();
            SpoolServer server = SpoolServer.start(spool, ServerConfig.builder().port(0).build());
            SpoolClient client = SpoolClient.connect(ClientConfig.builder().host(server.host()).port(server.port())
                .clientName("spool-bench-wire").build()))
        {
            final byte[] value = Payloads.printable(settings.payloadBytes());
            final int total = settings.warmupRounds() + settings.rounds();
            for (int round = 0; round < total; round++)
            {
                final boolean measured = round >= settings.warmupRounds();
                final String embedded = "embedded-" + round;
                final String remote = "remote-" + round;
                spool.createTopic(embedded, TopicConfig.of(1));
                spool.createTopic(remote, TopicConfig.of(1));
                confirmLatency.reset();
                pollLatency.reset();
                final boolean remoteFirst = round % 2 == 1;
                final Timed[] published = inTurn(remoteFirst,
                    () -> embeddedPublish(spool, embedded, settings, value),
                    () -> remotePublish(client, remote, settings, value, confirmLatency));
                final Timed[] consumed = inTurn(remoteFirst,
                    () -> embeddedConsume(spool, embedded, settings.records()),
                    () -> remoteConsume(client, remote, settings.records(), pollLatency));
                spool.streams().deleteTopic(embedded);
                spool.streams().deleteTopic(remote);
                if (measured)
                {
                    publish.add(published[1], published[0], confirmLatency);
                    consume.add(consumed[1], consumed[0], pollLatency);
                }
                progressOut.println(String.format(Locale.ROOT, "bench wire: %s %d of %d: publish with confirms " +
                    "embedded %,.0f, remote %,.0f records/s (%.2f), CPU %,d and %,d ns/record; consume embedded " +
                    "%,.0f, remote %,.0f records/s (%.2f)", measured ? "round" : "warm-up round",
                    measured ? round - settings.warmupRounds() + 1 : round + 1,
                    measured ? settings.rounds() : settings.warmupRounds(),
                    published[0].rate(settings.records()), published[1].rate(settings.records()),
                    published[1].rate(settings.records()) / published[0].rate(settings.records()),
                    published[0].cpuNanos() / settings.records(), published[1].cpuNanos() / settings.records(),
                    consumed[0].rate(settings.records()), consumed[1].rate(settings.records()),
                    consumed[1].rate(settings.records()) / consumed[0].rate(settings.records())));
                progressOut.flush();
            }
            progressOut.println(String.format(Locale.ROOT, "bench wire: CPU of the whole process per published " +
                "record, median of the measured rounds: embedded %,d ns, remote %,d ns", publish.medianCpu(false,
                settings.records()), publish.medianCpu(true, settings.records())));
            progressOut.flush();
        }
        final int batchKiB = Math.max(1, settings.batchBytes() / 1024);
        return List.of(
            publish.result(NAME + " publish (1 connection, batches of " + batchKiB + " KiB)", settings,
                "spool publish with confirms over loopback", "embedded producer, same rounds",
                "publish to confirm, one record in " + LATENCY_SAMPLE_EVERY),
            consume.result(NAME + " consume (1 connection)", settings, "spool fetch over loopback",
                "embedded stream poll, same rounds", "one poll of up to " + MAX_RECORDS_PER_POLL + " records"));
    }

    /** How long a part of a round took, and the CPU time the whole process spent meanwhile. */
    private record Timed(long wallNanos, long cpuNanos)
    {
        double rate(final long records)
        {
            return records * 1e9 / wallNanos;
        }
    }

    /** Runs the embedded and the remote part of a round in the order asked; returns embedded, then remote. */
    private static Timed[] inTurn(final boolean remoteFirst, final Runnable embedded, final Runnable remote)
    {
        final Timed[] timed = new Timed[2];
        if (remoteFirst)
        {
            timed[1] = timed(remote);
            timed[0] = timed(embedded);
        }
        else
        {
            timed[0] = timed(embedded);
            timed[1] = timed(remote);
        }
        return timed;
    }

    private static Timed timed(final Runnable work)
    {
        final long cpu = ProcessCpu.nanos();
        final long start = System.nanoTime();
        work.run();
        return new Timed(Math.max(1, System.nanoTime() - start), ProcessCpu.nanos() - cpu);
    }

    private static void embeddedPublish(final Spool spool, final String topic, final Settings settings,
        final byte[] value)
    {
        final Confirms confirms = new Confirms(null, 0);
        final StreamProducer producer = spool.streams().newProducer(confirms);
        final UnsafeBuffer buffer = new UnsafeBuffer(value);
        for (long i = 0; i < settings.records(); i++)
        {
            producer.publishToPartition(topic, 0, buffer, 0, -1, buffer, 0, 0, buffer, 0, value.length, i);
        }
        confirms.await(settings.records());
    }

    private static void remotePublish(final SpoolClient client, final String topic, final Settings settings,
        final byte[] value, final AtomicHistogram latency)
    {
        final Confirms confirms = new Confirms(latency, settings.records());
        final RemoteProducer producer = client.newProducer(ProducerConfig.builder().batchBytes(settings.batchBytes())
            .build(), confirms);
        for (long i = 0; i < settings.records(); i++)
        {
            confirms.sent(i);
            producer.sendToPartition(topic, 0, null, null, value, i);
        }
        producer.flush();
        confirms.await(settings.records());
    }

    private static void embeddedConsume(final Spool spool, final String topic, final long records)
    {
        try (StreamConsumer consumer = spool.newConsumer(ConsumerConfig.standalone()))
        {
            final List<TopicPartition> partitions = List.of(new TopicPartition(topic, 0));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            drain(records,
                () -> consumer.poll((t, p, record) -> { }, MAX_RECORDS_PER_POLL, MAX_POLL_BYTES, POLL_TIMEOUT));
        }
    }

    private static void remoteConsume(final SpoolClient client, final String topic, final long records,
        final AtomicHistogram latency)
    {
        final RemoteStreamConsumer consumer = client.newStreamReader();
        try
        {
            final List<TopicPartition> partitions = List.of(new TopicPartition(topic, 0));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            drain(records, () ->
            {
                final long pollStart = System.nanoTime();
                final int polled = consumer.poll((t, p, record) -> { }, MAX_RECORDS_PER_POLL, MAX_POLL_BYTES,
                    POLL_TIMEOUT);
                LatencyHistograms.record(latency, System.nanoTime() - pollStart);
                return polled;
            });
        }
        finally
        {
            consumer.close();
        }
    }

    /** Polls until {@code records} were handed over. */
    private static void drain(final long records, final LongSupplier poll)
    {
        long seen = 0;
        while (seen < records)
        {
            seen += poll.getAsLong();
        }
    }

    /**
     * Counts the confirms of one publish run and samples publish-to-confirm latency. Confirms arrive on one thread
     * (a pipeline's or the client connection's) while the publishing thread waits. Thread-safe for that pair.
     */
    private static final class Confirms implements PublishListener
    {
        private final AtomicHistogram latency;
        private final long[] sentNanos;
        private final AtomicLong confirmed = new AtomicLong();
        private final AtomicReference<SpoolException> failure = new AtomicReference<>();

        Confirms(final AtomicHistogram latency, final long records)
        {
            this.latency = latency;
            this.sentNanos = new long[latency == null ? 0 : (int)(records / LATENCY_SAMPLE_EVERY + 1)];
        }

        void sent(final long correlation)
        {
            if (correlation % LATENCY_SAMPLE_EVERY == 0)
            {
                sentNanos[(int)(correlation / LATENCY_SAMPLE_EVERY)] = System.nanoTime();
            }
        }

        @Override
        public void onPublished(final long correlation, final String topic, final int partition, final long offset)
        {
            if (latency != null && correlation % LATENCY_SAMPLE_EVERY == 0)
            {
                LatencyHistograms.record(latency,
                    System.nanoTime() - sentNanos[(int)(correlation / LATENCY_SAMPLE_EVERY)]);
            }
            confirmed.lazySet(confirmed.get() + 1);
        }

        @Override
        public void onFailed(final long correlation, final String topic, final int partition,
            final SpoolException error)
        {
            failure.compareAndSet(null, error);
            confirmed.lazySet(confirmed.get() + 1);
        }

        /** Parks between looks, so waiting for the last confirms adds little to the process's CPU time. */
        void await(final long records)
        {
            while (confirmed.get() < records)
            {
                LockSupport.parkNanos(AWAIT_PARK_NANOS);
            }
            if (failure.get() != null)
            {
                throw new IllegalStateException("a publish failed: " + failure.get().getMessage(), failure.get());
            }
        }
    }

    /** The measured rounds of one operation, remote and embedded, summed. Not thread-safe. */
    private static final class Sums
    {
        private final double[] remoteRates;
        private final double[] embeddedRates;
        private final long[] remoteCpu;
        private final long[] embeddedCpu;
        private final double[] ends;
        private final AtomicHistogram latency = LatencyHistograms.newHistogram();
        private int rounds;
        private long remoteNanos;
        private long embeddedNanos;

        Sums(final int rounds)
        {
            this.remoteRates = new double[rounds];
            this.embeddedRates = new double[rounds];
            this.remoteCpu = new long[rounds];
            this.embeddedCpu = new long[rounds];
            this.ends = new double[rounds];
        }

        void add(final Timed remote, final Timed embedded, final AtomicHistogram roundLatency)
        {
            remoteRates[rounds] = 1e9 / remote.wallNanos();
            embeddedRates[rounds] = 1e9 / embedded.wallNanos();
            remoteCpu[rounds] = remote.cpuNanos();
            embeddedCpu[rounds] = embedded.cpuNanos();
            remoteNanos += remote.wallNanos();
            embeddedNanos += embedded.wallNanos();
            ends[rounds] = remoteNanos / 1e9;
            latency.add(roundLatency);
            rounds++;
        }

        long medianCpu(final boolean remote, final long records)
        {
            final long[] sorted = Arrays.copyOf(remote ? remoteCpu : embeddedCpu, rounds);
            Arrays.sort(sorted);
            return sorted[rounds / 2] / records;
        }

        BenchRun result(final String benchmark, final Settings settings, final String measured, final String baseline,
            final String latencyName)
        {
            final long records = settings.records() * rounds;
            final double[] remote = scaled(remoteRates, settings.records());
            final double[] embedded = scaled(embeddedRates, settings.records());
            return new BenchRun(new BenchResult(benchmark, 1, 1, "none",
                new Throughput(measured + ", " + rounds + " rounds", records, settings.payloadBytes(), remoteNanos),
                new Throughput(baseline, records, settings.payloadBytes(), embeddedNanos),
                latencyName, LatencySummary.ofNanos(latency), BenchResult.FSYNCS_NOT_COUNTED),
                List.of(new ThroughputSeries(measured + ", per round", ends, remote),
                    new ThroughputSeries(baseline + ", per round", ends, embedded)),
                LatencyDistribution.ofNanos(latency));
        }

        private static double[] scaled(final double[] perRecord, final long records)
        {
            final double[] rates = perRecord.clone();
            for (int i = 0; i < rates.length; i++)
            {
                rates[i] *= records;
            }
            return rates;
        }
    }
}
