package io.spool.perf.bench;

import io.spool.Spool;
import io.spool.api.SpoolException;
import io.spool.api.queue.ConsumerOptions;
import io.spool.api.queue.StartPosition;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.PublishListener;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicPartition;
import io.spool.log.RecordBatch;
import io.spool.perf.report.BenchResult;
import io.spool.perf.report.BenchRun;
import io.spool.perf.report.LatencyDistribution;
import io.spool.perf.report.LatencySummary;
import io.spool.perf.report.Throughput;
import io.spool.perf.report.ThroughputSeries;
import io.spool.queue.QueueConsumer;
import io.spool.queue.Subscription;
import io.spool.stream.ConsumerConfig;
import io.spool.stream.StreamConsumer;
import io.spool.stream.StreamProducer;
import org.HdrHistogram.AtomicHistogram;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code spool bench queue}: for each consumer count and prefetch asked for, a topic of records drained as a
 * queue (push consumers acking every delivery), beside the same records read as a stream (one consumer polling
 * from offset 0) in the same run. Both read records already published: each round reads the topic as a stream and
 * then drains it through a new subscription from the earliest offset, so the two alternate under the same load; the
 * rounds of the first second (at least one) warm both up and are not counted, and the figures are the medians of the
 * rounds after them: at least {@link #ROUNDS}, and as many more as the timed drains need to add up to
 * {@link #TIMED_NANOS}. The consumers count their acks without a shared atomic (see {@link AckTally}). A last,
 * live phase publishes a fifth as many records while the consumers ack them; each record carries its publish time,
 * which gives publish-to-ack latency. After the first timed round and after the last it reports a cache line's round
 * trip between two threads' CPUs ({@link CacheLineRoundTrip}), which the ratios move with. Not thread-safe: one run at
 * a time.
 */
public final class QueueBench
{
    public static final String NAME = "queue";
    private static final int PUBLISH_BATCH = 1000;
    /** Fewest timed rounds of stream poll and queue drain after the warm-up rounds. */
    public static final int ROUNDS = 3;
    /**
     * Least time the timed drains add up to: more rounds run until they do. At high prefetch a backlog drains in a
     * few milliseconds, so three rounds alone were at the mercy of one scheduling hiccup.
     */
    static final long TIMED_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    /**
     * Untimed rounds come first for at least this long, and at least one. A round is short, while the JIT's
     * compiler threads stay busy far longer on a small machine: with a single warm-up round the timed rounds shared
     * the machine with the compiler. Past it they go on until the JIT settles ({@link JitWarmUp}), for at most
     * {@link #MAX_WARM_UP_NANOS}.
     */
    static final long WARM_UP_NANOS = TimeUnit.SECONDS.toNanos(1);
    static final long MAX_WARM_UP_NANOS = TimeUnit.SECONDS.toNanos(10);

    private QueueBench()
    {
    }

    /**
     * @return one result per consumer count and prefetch, each beside the stream baseline of the same run.
     */
    public static List<BenchRun> run(final Path dataDirectory, final long records, final int payloadBytes,
        final int partitions, final int[] consumerCounts, final int[] prefetches, final PrintWriter progressOut)
        throws InterruptedException
    {
        return run(dataDirectory, records, payloadBytes, partitions, consumerCounts, prefetches, WARM_UP_NANOS,
            MAX_WARM_UP_NANOS, TIMED_NANOS, progressOut);
    }

    /**
     * @param warmUpNanos    how long untimed rounds run first; one always does.
     * @param maxWarmUpNanos how long they may go on while the JIT has not settled.
     * @param timedNanos     how long the timed drains must add up to; {@link #ROUNDS} always run.
     */
    static List<BenchRun> run(final Path dataDirectory, final long records, final int payloadBytes,
        final int partitions, final int[] consumerCounts, final int[] prefetches, final long warmUpNanos,
        final long maxWarmUpNanos, final long timedNanos, final PrintWriter progressOut)
        throws InterruptedException
    {
        final List<BenchRun> results = new ArrayList<>();
        try (ScratchDirectory directory = ScratchDirectory.create(dataDirectory, "bench-queue");
            Spool spool = Spool.builder(directory.path()).backgroundMaintenance(false).open())
        {
            for (final int consumers : consumerCounts)
            {
                for (final int prefetch : prefetches)
                {
                    final String topic = "bench-" + consumers + "-" + prefetch;
                    spool.createTopic(topic, TopicConfig.of(partitions));
                    progressOut.println("bench queue: publishing " + records + " records for " + consumers +
                        " consumer(s), prefetch " + prefetch);
                    progressOut.flush();
                    publish(spool, topic, records, payloadBytes);
                    final List<Throughput> streams = new ArrayList<>();
                    final List<Drained> drains = new ArrayList<>();
                    long roundTripAtFirst = 0;
                    final JitWarmUp warmUp = JitWarmUp.of(warmUpNanos, maxWarmUpNanos);
                    long timed = 0;
                    for (int round = 0; drains.size() < ROUNDS || timed < timedNanos; round++)
                    {
                        final Throughput stream = streamPoll(spool, topic, partitions, payloadBytes);
                        final Subscription subscription = subscribe(spool, topic, topic + "-" + round);
                        final Drained drained = consume(spool, subscription, records, 0, payloadBytes, consumers,
                            prefetch, null, "receive + ack of the published records");
                        spool.deleteSubscription(subscription.name());
                        if (!warmUp.roundWasWarmUp())
                        {
                            if (drains.isEmpty())
                            {
                                // Not before the warm-up: the JIT's compiler threads would share the CPUs with it.
                                roundTripAtFirst = CacheLineRoundTrip.medianNanos();
                            }
                            streams.add(stream);
                            drains.add(drained);
                            timed += drained.elapsedNanos();
                        }
                    }
                    progressOut.println("bench queue: a cache line's round trip between two threads' CPUs: " +
                        roundTripAtFirst + " ns after the first timed round, " + CacheLineRoundTrip.medianNanos() +
                        " ns after the last");
                    progressOut.flush();
                    streams.sort(Comparator.comparingLong(Throughput::elapsedNanos));
                    drains.sort(Comparator.comparingLong(Drained::elapsedNanos));
                    final Drained backlog = drains.get(drains.size() / 2);
                    final Subscription subscription = subscribe(spool, topic, topic);
                    final AtomicHistogram latency = LatencyHistograms.newHistogram();
                    final Drained live = consume(spool, subscription, Math.max(1, records / 5),
                        Math.max(1, records / 5), payloadBytes, consumers, prefetch, latency,
                        "receive + ack while publishing (live phase)");
                    results.add(new BenchRun(new BenchResult(
                        NAME + " (" + consumers + " consumer(s), prefetch " + prefetch + ")",
                        partitions, 1, "none",
                        new Throughput("spool queue receive + ack, median of " + drains.size() + " rounds", records,
                            payloadBytes, Math.max(1, backlog.elapsedNanos())),
                        streams.get(streams.size() / 2), "publish to ack", LatencySummary.ofNanos(latency),
                        BenchResult.FSYNCS_NOT_COUNTED),
                        List.of(backlog.throughput(), live.throughput()), LatencyDistribution.ofNanos(latency)));
                    spool.deleteSubscription(topic);
                    spool.streams().deleteTopic(topic);
                }
            }
        }
        return results;
    }

    /**
     * A subscription that starts at the topic's first record; the live phase's starts at its end, after the
     * records the rounds drained.
     */
    private static Subscription subscribe(final Spool spool, final String topic, final String name)
    {
        return spool.createSubscription(name, topic, SubscriptionSettings.builder()
            .deliveryLimit(SubscriptionSettings.UNLIMITED_DELIVERIES)
            .startPosition(name.equals(topic) ? StartPosition.latest() : StartPosition.earliest()).build());
    }

    /**
     * @param elapsedNanos from the first delivery (in the live phase, from the first publish) to the last ack.
     * @param throughput   acks per second over that time, sampled.
     */
    private record Drained(long elapsedNanos, ThroughputSeries throughput)
    {
    }

    /**
     * Starts the consumers, publishes {@code livePublishes} more records (each value starting with its publish
     * time), and waits until {@code records} deliveries were acked. A drain of records published before is timed
     * from its first delivery: the agent hands the first consumer its deliveries as soon as it is added, and timed
     * from when the last consumer was added, four consumers drained much of the backlog before the clock started
     * (single rounds far faster than the stream poll). Holding the consumers at their first delivery
     * until the clock started, tried first, added a wake-up or a wait to every round; this leaves them alone.
     *
     * @param latency publish-to-ack latency goes here; null when the records were published before, which leaves
     *                the consumers nothing to do but ack.
     * @param what    names the sampled throughput.
     */
    private static Drained consume(final Spool spool, final Subscription subscription, final long records,
        final long livePublishes, final int payloadBytes, final int consumerCount, final int prefetch,
        final AtomicHistogram latency, final String what)
        throws InterruptedException
    {
        final AckTally acked = new AckTally(consumerCount);
        final AtomicLong firstDelivery = new AtomicLong();
        final List<QueueConsumer> consumers = new ArrayList<>();
        for (int c = 0; c < consumerCount; c++)
        {
            final int counter = c;
            consumers.add(subscription.consume(ConsumerOptions.prefetch(prefetch), (delivery, consumer) ->
            {
                if (firstDelivery.get() == 0)
                {
                    firstDelivery.compareAndSet(0, System.nanoTime());
                }
                consumer.ack(delivery);
                if (latency != null)
                {
                    LatencyHistograms.record(latency,
                        System.nanoTime() - delivery.buffer().getLong(delivery.valueOffset()));
                }
                acked.increment(counter);
            }));
        }
        final ThroughputSampler sampler = ThroughputSampler.start(what, acked::total);
        final long start = System.nanoTime();
        if (livePublishes > 0)
        {
            publish(spool, subscription.topic(), livePublishes, payloadBytes);
        }
        if (!acked.awaitTotal(records, 10, TimeUnit.MINUTES))
        {
            sampler.close();
            throw new IllegalStateException("queue bench: " + (records - acked.total()) + " records never acked");
        }
        final long elapsed = System.nanoTime() - (latency == null ? firstDelivery.get() : start);
        final ThroughputSeries throughput = sampler.stop();
        for (final QueueConsumer consumer : consumers)
        {
            consumer.close();
        }
        return new Drained(elapsed, throughput);
    }

    private static void publish(final Spool spool, final String topic, final long records, final int payloadBytes)
        throws InterruptedException
    {
        final CountDownLatch confirmed = new CountDownLatch(1);
        final AtomicLong unconfirmed = new AtomicLong(records);
        final StreamProducer producer = spool.streams().newProducer(new PublishListener()
        {
            @Override
            public void onPublished(final long correlation, final String topic, final int partition, final long offset)
            {
                if (unconfirmed.decrementAndGet() == 0)
                {
                    confirmed.countDown();
                }
            }

            @Override
            public void onFailed(final long correlation, final String topic, final int partition,
                final SpoolException error)
            {
                throw error;
            }
        });
        final UnsafeBuffer value = new UnsafeBuffer(new byte[Math.max(Long.BYTES, payloadBytes)]);
        final UnsafeBuffer none = new UnsafeBuffer(new byte[0]);
        final RecordBatch batch = new RecordBatch();
        final int partitions = spool.streams().topics().partitionCount(topic);
        long published = 0;
        while (published < records)
        {
            batch.clear();
            final int n = (int)Math.min(PUBLISH_BATCH, records - published);
            value.putLong(0, System.nanoTime());
            for (int i = 0; i < n; i++)
            {
                batch.add(-1, none, 0, -1, none, 0, 0, value, 0, value.capacity());
            }
            producer.publishBatch(topic, (int)(published / PUBLISH_BATCH % partitions), batch, published);
            published += n;
        }
        confirmed.await();
    }

    /** The same records read back as a stream from offset 0, one consumer. */
    private static Throughput streamPoll(final Spool spool, final String topic, final int partitions,
        final int payloadBytes)
    {
        final long[] read = {0};
        try (StreamConsumer consumer = spool.newConsumer(ConsumerConfig.standalone()))
        {
            final List<TopicPartition> assigned = new ArrayList<>();
            for (int p = 0; p < partitions; p++)
            {
                assigned.add(new TopicPartition(topic, p));
            }
            consumer.assign(assigned);
            consumer.seekToBeginning(assigned);
            final long start = System.nanoTime();
            long seen = 0;
            final long end = totalEnd(spool, topic, partitions);
            while (seen < end)
            {
                seen += consumer.poll((polled, partition, record) ->
                    read[0] += record.buffer().getByte(record.valueOffset()), 1000, Integer.MAX_VALUE, Duration.ZERO);
            }
            final long elapsed = System.nanoTime() - start;
            return new Throughput("stream poll of the same topic", seen, payloadBytes, Math.max(1, elapsed));
        }
    }

    private static long totalEnd(final Spool spool, final String topic, final int partitions)
    {
        long end = 0;
        for (int p = 0; p < partitions; p++)
        {
            end += spool.streams().topics().topic(topic).partition(p).endOffset();
        }
        return end;
    }
}
