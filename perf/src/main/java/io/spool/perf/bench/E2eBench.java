package io.spool.perf.bench;

import io.spool.Spool;
import io.spool.api.SpoolException;
import io.spool.api.log.LogConfig;
import io.spool.api.stream.PublishListener;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicPartition;
import io.spool.perf.report.BenchResult;
import io.spool.perf.report.BenchRun;
import io.spool.perf.report.LatencyDistribution;
import io.spool.perf.report.LatencySummary;
import io.spool.perf.report.ProgressLine;
import io.spool.perf.report.Throughput;
import io.spool.perf.report.ThroughputSeries;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code spool bench e2e}: records published through a client to a server on loopback and polled as a stream by a
 * second client while they are published, for each partition count asked for; each value starts with its publish
 * time, which gives publish-to-poll latency per record. Unpaced, the producer runs ahead of the pipe and the latency
 * is mostly queueing; paced at a rate below what the pipe carries, it is the latency of the path itself. Beside it,
 * the raw mapped append of as many records, timed just before and just after each run as {@link IngestBench} does.
 * Stateless: one run at a time.
 */
public final class E2eBench
{
    public static final String NAME = "e2e";
    /** A rate of 0: publish as fast as the producer can. */
    public static final long UNPACED = 0;
    private static final String MEASURED = "spool publish to stream poll over loopback";
    private static final int RAW_BATCH = 256;
    /**
     * Records of an untimed run before each measured one, on the same partition count: the first run in a process
     * carries class loading and JIT compilation, which made the tail of a paced run many times longer when it came
     * first than when it was repeated, and is not the latency of the path.
     */
    private static final long WARM_UP_RECORDS = 100_000;
    private static final int MAX_RECORDS_PER_POLL = 10_000;
    private static final int MAX_POLL_BYTES = 4 << 20;
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(200);
    private static final long SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(60);

    private E2eBench()
    {
    }

    /**
     * @param baselineRecords records the raw append is timed over, before and after each run.
     * @param recordsPerSec   the pace of publishing, or {@link #UNPACED} for as fast as the producer can.
     * @return one result per partition count, each beside the raw append of the same run.
     */
    public static List<BenchRun> run(final Path dataDirectory, final long records, final long baselineRecords,
        final int payloadBytes, final int[] partitionCounts, final long recordsPerSec, final PrintWriter progressOut)
        throws InterruptedException
    {
        if (records < 1 || baselineRecords < 1 || payloadBytes < Long.BYTES || payloadBytes >
            BenchSettings.MAX_PAYLOAD_BYTES)
        {
            throw new IllegalArgumentException("records must be at least 1 and payload bytes from " + Long.BYTES +
                " (the publish time) to " + BenchSettings.MAX_PAYLOAD_BYTES + ", were " + records + " and " +
                payloadBytes);
        }
        if (recordsPerSec < 0 || recordsPerSec > TimeUnit.SECONDS.toNanos(1))
        {
            throw new IllegalArgumentException("the rate must be from 1 to 1,000,000,000 records/s, or 0 for as fast "
                + "as the producer can, was " + recordsPerSec);
        }
        final String latency = recordsPerSec == UNPACED ? "publish to poll, per record" : String.format(Locale.ROOT,
            "publish to poll, per record, paced at %,d records/s, from the intended send time", recordsPerSec);
        final List<BenchRun> runs = new ArrayList<>();
        for (final int partitions : partitionCounts)
        {
            if (partitions < 1)
            {
                throw new IllegalArgumentException("partitions must be at least 1, was " + partitions);
            }
            publishAndPoll(dataDirectory, Math.min(records, WARM_UP_RECORDS), payloadBytes, partitions, recordsPerSec,
                progressOut);
            final Throughput before = rawAppend(dataDirectory, baselineRecords, payloadBytes);
            final Outcome outcome = publishAndPoll(dataDirectory, records, payloadBytes, partitions, recordsPerSec,
                progressOut);
            final Throughput after = rawAppend(dataDirectory, baselineRecords, payloadBytes);
            runs.add(new BenchRun(new BenchResult(NAME + " (" + partitions + " partition(s))", partitions, 1, "none",
                new Throughput(MEASURED, records, payloadBytes, outcome.elapsedNanos()),
                new Throughput(RawBaselineRun.RAW_APPEND + ", before and after", before.records() + after.records(),
                    payloadBytes, before.elapsedNanos() + after.elapsedNanos()),
                latency, LatencySummary.ofNanos(outcome.latencyNanos()),
                BenchResult.FSYNCS_NOT_COUNTED),
                List.of(outcome.throughput()), LatencyDistribution.ofNanos(outcome.latencyNanos())));
        }
        return runs;
    }

    private record Outcome(long elapsedNanos, AtomicHistogram latencyNanos, ThroughputSeries throughput)
    {
    }

    private static Outcome publishAndPoll(final Path dataDirectory, final long records, final int payloadBytes,
        final int partitions, final long recordsPerSec, final PrintWriter progressOut) throws InterruptedException
    {
        try (ScratchDirectory directory = ScratchDirectory.create(dataDirectory, "bench-e2e");
            Spool spool = Spool.builder(directory.path()).backgroundMaintenance(false).open();
            SpoolServer server = SpoolServer.start(spool, ServerConfig.builder().port(0).build());
            SpoolClient producing = connect(server);
            SpoolClient polling = connect(server))
        {
            spool.createTopic(NAME, TopicConfig.of(partitions));
            final AtomicHistogram latencyNanos = LatencyHistograms.newHistogram();
            final Poller poller = new Poller(polling.newStreamReader(), partitions, records, latencyNanos);
            final Thread pollerThread = new Thread(poller, "spool-bench-e2e-poller");

            final AtomicReference<SpoolException> publishFailure = new AtomicReference<>();
            final RemoteProducer producer = producing.newProducer(ProducerConfig.builder().lingerMillis(1).build(),
                failuresTo(publishFailure));
            final byte[] value = Payloads.printable(payloadBytes);
            final UnsafeBuffer stamp = new UnsafeBuffer(value);

            final long elapsedNanos;
            final ThroughputSeries throughput;
            try (ProgressLine ignored = ProgressLine.start(NAME, records, poller::polled, progressOut);
                ThroughputSampler sampler = ThroughputSampler.start(MEASURED, poller::polled))
            {
                pollerThread.start();
                final long intervalNanos = recordsPerSec == UNPACED ? 0 : TimeUnit.SECONDS.toNanos(1) / recordsPerSec;
                final long start = System.nanoTime();
                for (long i = 0; i < records && publishFailure.get() == null; i++)
                {
                    if (intervalNanos == 0)
                    {
                        stamp.putLong(0, System.nanoTime());
                    }
                    else
                    {
                        // stamped with when the record was due, not when it went: a stalled producer is latency
                        // too, which a stamp taken after the stall would hide (coordinated omission)
                        final long due = start + i * intervalNanos;
                        awaitNanoTime(due);
                        stamp.putLong(0, due);
                    }
                    producer.send(NAME, null, null, value, i);
                }
                producer.flush();
                awaitPolled(pollerThread, poller, publishFailure);
                elapsedNanos = System.nanoTime() - start;
                throughput = sampler.stop();
            }
            finally
            {
                poller.stop();
                pollerThread.join();
            }
            if (publishFailure.get() != null)
            {
                throw new IllegalStateException("a publish failed: " + publishFailure.get().getMessage(),
                    publishFailure.get());
            }
            poller.rethrowFailure();
            return new Outcome(Math.max(1, elapsedNanos), latencyNanos, throughput);
        }
    }

    /** Parks while the wait is long, spins through the last tens of microseconds, which a park would overshoot. */
    private static void awaitNanoTime(final long due)
    {
        for (long remaining = due - System.nanoTime(); remaining > 0; remaining = due - System.nanoTime())
        {
            if (remaining > SPIN_NANOS)
            {
                LockSupport.parkNanos(remaining - SPIN_NANOS);
            }
            else
            {
                Thread.onSpinWait();
            }
        }
    }

    /** Waits for the poller to see every record; stops it when a publish failed, for it would wait forever. */
    private static void awaitPolled(final Thread pollerThread, final Poller poller,
        final AtomicReference<SpoolException> publishFailure) throws InterruptedException
    {
        while (pollerThread.isAlive())
        {
            if (publishFailure.get() != null)
            {
                poller.stop();
            }
            pollerThread.join(100);
        }
    }

    private static SpoolClient connect(final SpoolServer server)
    {
        return SpoolClient.connect(ClientConfig.builder().host(server.host()).port(server.port())
            .clientName("spool-bench-e2e").build());
    }

    private static PublishListener failuresTo(final AtomicReference<SpoolException> failure)
    {
        return new PublishListener()
        {
            @Override
            public void onPublished(final long correlation, final String topic, final int partition,
                final long offset)
            {
                // the poller sees every stored record; a confirm adds nothing to measure
            }

            @Override
            public void onFailed(final long correlation, final String topic, final int partition,
                final SpoolException error)
            {
                failure.compareAndSet(null, error);
            }
        };
    }

    private static Throughput rawAppend(final Path dataDirectory, final long records, final int payloadBytes)
    {
        try (ScratchDirectory directory = ScratchDirectory.create(dataDirectory, "bench-raw-append");
            RawBaselineRun raw = new RawBaselineRun(directory.path(), records, Payloads.printable(payloadBytes),
                LogConfig.DEFAULT_SEGMENT_BYTES, RAW_BATCH))
        {
            return raw.measureAppend();
        }
    }

    /**
     * Polls every partition from offset 0 until it has seen every record, recording each one's publish-to-poll
     * latency. Not thread-safe: runs on its own thread; {@link #polled()} may be read from any.
     */
    private static final class Poller implements Runnable
    {
        private final RemoteStreamConsumer consumer;
        private final long records;
        private final AtomicHistogram latencyNanos;
        private final AtomicLong polled = new AtomicLong();
        private volatile boolean stopped;
        private volatile RuntimeException failure;

        Poller(final RemoteStreamConsumer consumer, final int partitions, final long records,
            final AtomicHistogram latencyNanos)
        {
            this.consumer = consumer;
            this.records = records;
            this.latencyNanos = latencyNanos;
            final List<TopicPartition> assigned = new ArrayList<>();
            for (int p = 0; p < partitions; p++)
            {
                assigned.add(new TopicPartition(NAME, p));
            }
            consumer.assign(assigned);
            consumer.seekToBeginning(assigned);
        }

        long polled()
        {
            return polled.get();
        }

        void stop()
        {
            stopped = true;
        }

        @Override
        public void run()
        {
            try
            {
                long seen = 0;
                while (seen < records && !stopped)
                {
                    // the clock is read as each record is handed over: that is when the application has it
                    final int handed = consumer.poll((topic, partition, record) -> LatencyHistograms.record(
                        latencyNanos, System.nanoTime() - record.buffer().getLong(record.valueOffset())),
                        MAX_RECORDS_PER_POLL, MAX_POLL_BYTES, POLL_TIMEOUT);
                    seen += handed;
                    polled.lazySet(seen);
                }
            }
            catch (final RuntimeException ex)
            {
                failure = ex;
            }
            finally
            {
                consumer.close();
            }
        }

        void rethrowFailure()
        {
            if (failure != null)
            {
                throw new IllegalStateException("the stream poller failed: " + failure.getMessage(), failure);
            }
            if (polled.get() < records)
            {
                throw new IllegalStateException("only " + polled.get() + " of " + records + " records were polled");
            }
        }
    }
}
