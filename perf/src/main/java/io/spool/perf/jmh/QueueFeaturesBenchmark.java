package io.spool.perf.jmh;

import io.spool.Spool;
import io.spool.SpoolProducer;
import io.spool.api.log.LogConfig;
import io.spool.api.queue.GroupKeySource;
import io.spool.api.queue.GroupMode;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.perf.bench.QueueFeaturesBench;
import io.spool.perf.bench.ScratchDirectory;
import io.spool.queue.Subscription;
import org.agrona.concurrent.CachedEpochClock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Receive + ack throughput of a subscription with ordered message groups, or with every message delayed on
 * publish, against plain receive + ack, in the same run. Each invocation drains a backlog of 100-byte messages
 * published before it: read the {@code plain} row as the baseline and the others as a ratio to it.
 * <p>
 * {@code groups}: 1,000 groups named by a header, at most one message of a group in flight. {@code delays}: every
 * message published with a one-second delay; the drain meets them all as delayed while the clock moves in 100 ms
 * steps, and they come due through the timer wheel. The headers and the drain are {@link QueueFeaturesBench}'s,
 * which {@code spool bench queue --features} runs with the modes alternating round by round. Not thread-safe: JMH
 * runs one thread per trial.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 5)
@Fork(1)
public class QueueFeaturesBenchmark
{
    private static final int MESSAGES = 100_000;

    @Param({"plain", "groups", "delays"})
    public String mode;

    private final CachedEpochClock clock = new CachedEpochClock();
    private ScratchDirectory directory;
    private Spool spool;
    private Subscription subscription;
    private int round;

    @Setup(Level.Trial)
    public void open()
    {
        clock.update(1_000_000_000L);
        directory = ScratchDirectory.create(JmhSettings.dataDirectory(), "jmh-queue-features");
        spool = Spool.builder(directory.path()).clock(clock).backgroundMaintenance(false).open();
        spool.createTopic("bench", new TopicConfig(1, LogConfig.builder().segmentBytes(JmhSettings.SEGMENT_BYTES)
            .build()));
        final SubscriptionSettings.Builder settings = SubscriptionSettings.builder()
            .lockTimeoutMillis(SubscriptionSettings.MAX_LOCK_TIMEOUT_MILLIS);
        if (mode.equals("groups"))
        {
            settings.messageGroups(GroupMode.ORDERED, GroupKeySource.HEADER);
        }
        subscription = spool.createSubscription("work", "bench", settings.build());
    }

    @Setup(Level.Iteration)
    public void publishBacklog()
    {
        final SpoolProducer producer = spool.newProducer();
        final byte[] value = JmhSettings.value();
        final List<CompletableFuture<?>> confirms = new ArrayList<>();
        for (int i = 0; i < MESSAGES; i++)
        {
            confirms.add(producer.send(new ProducerRecord("bench", 0, null,
                QueueFeaturesBench.headers(mode, round * MESSAGES + i), value)));
        }
        CompletableFuture.allOf(confirms.toArray(new CompletableFuture[0])).join();
        round++;
    }

    @Benchmark
    @OperationsPerInvocation(MESSAGES)
    public long receiveAndAck()
    {
        return QueueFeaturesBench.drain(subscription, MESSAGES, clock, mode.equals("delays"), null);
    }

    @TearDown(Level.Trial)
    public void close()
    {
        spool.close();
        directory.close();
    }
}
