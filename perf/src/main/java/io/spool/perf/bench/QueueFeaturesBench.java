package io.spool.perf.bench;

import io.spool.Spool;
import io.spool.SpoolProducer;
import io.spool.api.queue.GroupKeySource;
import io.spool.api.queue.GroupMode;
import io.spool.api.queue.QueueHeaders;
import io.spool.api.queue.Receipt;
import io.spool.api.queue.StartPosition;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.perf.report.BenchResult;
import io.spool.perf.report.BenchRun;
import io.spool.perf.report.LatencyDistribution;
import io.spool.perf.report.LatencySummary;
import io.spool.perf.report.Throughput;
import io.spool.queue.Delivery;
import io.spool.queue.Subscription;
import org.HdrHistogram.AtomicHistogram;
import org.agrona.concurrent.CachedEpochClock;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * {@code spool bench queue --features}: what message groups and delays cost on receive + ack, beside plain receive +
 * ack in the same run. Each round publishes a backlog for each of three subscriptions (plain; ordered groups over
 * 1,000 group ids; every message delayed one second on publish) and drains them one after the other with
 * {@code receive(500)} and a batch ack; the modes alternate round by round, so each meets the same load, and the
 * first round warms up and is not counted. Only the drains are timed. The engine runs on a hand-moved clock: the
 * delayed drain moves it in 100 ms steps, so every message is met while delayed and comes due through the timer wheel
 * without waiting real time. Not thread-safe: one run at a time.
 */
public final class QueueFeaturesBench
{
    public static final String NAME = "queue features";
    static final String[] MODES = {"plain", "groups", "delays"};
    private static final int RECEIVE_BATCH = 500;
    private static final int PUBLISH_BATCH = 1_000;
    private static final int GROUPS = 1_000;
    private static final long DELAY_MILLIS = 1_000;
    private static final long CLOCK_STEP_MILLIS = 100;

    private QueueFeaturesBench()
    {
    }

    /**
     * @return one result for groups and one for delays, each beside plain receive + ack of the same rounds.
     */
    public static List<BenchRun> run(final Path dataDirectory, final int messages, final int payloadBytes,
        final int rounds, final PrintWriter progressOut)
    {
        final CachedEpochClock clock = new CachedEpochClock();
        clock.update(System.currentTimeMillis());
        final long[][] elapsed = new long[MODES.length][rounds];
        final AtomicHistogram[] batches = new AtomicHistogram[MODES.length];
        try (ScratchDirectory directory = ScratchDirectory.create(dataDirectory, "bench-queue-features");
            Spool spool = Spool.builder(directory.path()).clock(clock).backgroundMaintenance(false).open())
        {
            for (int m = 0; m < MODES.length; m++)
            {
                spool.createTopic(MODES[m], TopicConfig.of(1));
                batches[m] = LatencyHistograms.newHistogram();
            }
            final SpoolProducer producer = spool.newProducer();
            final byte[] value = new byte[payloadBytes];
            for (int round = 0; round <= rounds; round++)
            {
                progressOut.println("bench queue features: round " + round + " of " + rounds +
                    (round == 0 ? " (warm-up)" : ""));
                progressOut.flush();
                for (int m = 0; m < MODES.length; m++)
                {
                    final Subscription subscription = subscribe(spool, MODES[m], round);
                    publish(producer, MODES[m], messages, value, round);
                    subscription.sync();
                    if (round > 0)
                    {
                        batches[m].reset();
                    }
                    final long nanos = drain(subscription, messages, clock, MODES[m].equals("delays"), batches[m]);
                    if (round > 0)
                    {
                        elapsed[m][round - 1] = nanos;
                    }
                    spool.deleteSubscription(subscription.name());
                }
            }
        }
        final Throughput plain = median("plain receive + ack", elapsed[0], messages, payloadBytes);
        final List<BenchRun> results = new ArrayList<>();
        for (int m = 1; m < MODES.length; m++)
        {
            results.add(new BenchRun(new BenchResult(
                NAME + " (" + describe(MODES[m]) + ", " + rounds + " rounds)", 1, 1, "none",
                median(MODES[m] + " receive + ack", elapsed[m], messages, payloadBytes), plain,
                "receive + batch ack of " + RECEIVE_BATCH, LatencySummary.ofNanos(batches[m]),
                BenchResult.FSYNCS_NOT_COUNTED), List.of(), LatencyDistribution.ofNanos(batches[m])));
        }
        return results;
    }

    private static String describe(final String mode)
    {
        return mode.equals("groups") ? "ordered groups, " + GROUPS + " group ids" :
            "every message delayed " + DELAY_MILLIS + " ms on publish";
    }

    /** A subscription that sees only what is published after it. */
    private static Subscription subscribe(final Spool spool, final String mode, final int round)
    {
        final SubscriptionSettings.Builder settings = SubscriptionSettings.builder()
            .lockTimeoutMillis(SubscriptionSettings.MAX_LOCK_TIMEOUT_MILLIS)
            .deliveryLimit(SubscriptionSettings.UNLIMITED_DELIVERIES)
            .startPosition(StartPosition.latest());
        if (mode.equals("groups"))
        {
            settings.messageGroups(GroupMode.ORDERED, GroupKeySource.HEADER);
        }
        return spool.createSubscription(mode + "-" + round, mode, settings.build());
    }

    private static void publish(final SpoolProducer producer, final String mode, final int messages,
        final byte[] value, final int round)
    {
        final List<ProducerRecord> batch = new ArrayList<>(PUBLISH_BATCH);
        for (int i = 0; i < messages; i++)
        {
            batch.add(new ProducerRecord(mode, 0, null, headers(mode, round * messages + i), value));
            if (batch.size() == PUBLISH_BATCH || i == messages - 1)
            {
                producer.sendBatch(batch).join();
                batch.clear();
            }
        }
    }

    /**
     * The headers of the {@code index}-th message published for {@code mode}: a group id for "groups" (the index
     * modulo 1,000), a one-second delay for "delays", none for "plain".
     */
    public static Map<String, byte[]> headers(final String mode, final int index)
    {
        return switch (mode)
        {
            case "groups" -> Map.of(QueueHeaders.GROUP_ID,
                Integer.toString(index % GROUPS).getBytes(StandardCharsets.UTF_8));
            case "delays" -> Map.of(QueueHeaders.DELAY, QueueHeaders.millis(DELAY_MILLIS));
            default -> Map.of();
        };
    }

    /**
     * Receives {@code messages} with {@code receive(500)} and acks each batch at once; when nothing is ready and
     * {@code delayed}, moves the clock 100 ms and lets the subscription act on it.
     *
     * @param batches the time of each receive and its ack goes here; null to keep none.
     * @return the nanoseconds the drain took.
     */
    public static long drain(final Subscription subscription, final int messages, final CachedEpochClock clock,
        final boolean delayed, final AtomicHistogram batches)
    {
        final List<Receipt> receipts = new ArrayList<>(RECEIVE_BATCH);
        int done = 0;
        final long start = System.nanoTime();
        while (done < messages)
        {
            final long batchStart = System.nanoTime();
            final List<Delivery> deliveries = subscription.receive(RECEIVE_BATCH, 0);
            if (deliveries.isEmpty() && delayed)
            {
                // Small steps, so that every message is met while still delayed and comes due through the wheel.
                clock.advance(CLOCK_STEP_MILLIS);
                subscription.sync();
                continue;
            }
            receipts.clear();
            for (final Delivery delivery : deliveries)
            {
                receipts.add(delivery.receipt());
            }
            if (!receipts.isEmpty())
            {
                subscription.ack(receipts);
                if (batches != null)
                {
                    LatencyHistograms.record(batches, System.nanoTime() - batchStart);
                }
            }
            done += deliveries.size();
        }
        return System.nanoTime() - start;
    }

    private static Throughput median(final String name, final long[] elapsed, final int messages,
        final int payloadBytes)
    {
        final long[] sorted = elapsed.clone();
        Arrays.sort(sorted);
        return new Throughput(name + ", median of " + sorted.length + " rounds", messages, payloadBytes,
            Math.max(1, sorted[sorted.length / 2]));
    }
}
