package io.spool.perf.bench;

import io.spool.Spool;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.cluster.ClusterClient;
import io.spool.cluster.ClusterProducer;
import io.spool.stream.StreamProducer;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * {@code spool bench cluster}: publishes with confirms to a topic replicated on three local nodes (child JVMs) and,
 * in the same run, to the single-node engine, in batches of the same size with the same number unconfirmed; then
 * SIGKILLs the partition's leader again and again and times each failover, from the kill to the first confirm a
 * new leader gives. Prints records/s of both, their ratio, and the failover times' percentiles.
 */
public final class ClusterBench
{
    private static final String TOPIC = "bench";

    /** What to run. */
    public record Settings(Path dataDir, long records, int batchRecords, int payloadBytes, int inFlight, int kills)
    {
    }

    private ClusterBench()
    {
    }

    public static void run(final Settings settings, final PrintWriter out) throws InterruptedException
    {
        final byte[] payload = Payloads.printable(settings.payloadBytes());
        final List<ProducerRecord> batch = new ArrayList<>();
        for (int i = 0; i < settings.batchRecords(); i++)
        {
            batch.add(ProducerRecord.toPartition(TOPIC, 0, null, payload));
        }
        final long batches = Math.max(1, settings.records() / settings.batchRecords());
        final long recordsSent = batches * settings.batchRecords();

        final double single;
        try (ScratchDirectory dir = ScratchDirectory.create(settings.dataDir(), "cluster-bench-single");
             Spool engine = Spool.open(dir.path()))
        {
            engine.createTopic(TOPIC, TopicConfig.of(1));
            final StreamProducer producer = engine.streams().newProducer();
            single = recordsPerSecond(recordsSent, publish(batches, settings.inFlight(),
                ignored -> producer.sendBatch(batch)));
        }
        out.printf(Locale.ROOT, "single node:     %,.0f records/s%n", single);
        out.flush();

        try (ScratchDirectory dir = ScratchDirectory.create(settings.dataDir(), "cluster-bench-nodes");
             ClusterNodeProcesses nodes = new ClusterNodeProcesses(dir.path(), 3))
        {
            nodes.startAll();
            try (ClusterClient client = ClusterClient.connect(nodes.members()))
            {
                client.createTopic(TOPIC, 3, TopicConfig.of(1));
                final ClusterProducer producer = client.newProducer();
                final double replicated = recordsPerSecond(recordsSent, publish(batches, settings.inFlight(),
                    ignored -> producer.send(TOPIC, 0, batch)));
                out.printf(Locale.ROOT, "three nodes:     %,.0f records/s (%.2f of single node)%n", replicated,
                    replicated / single);
                out.flush();
                if (settings.kills() > 0)
                {
                    final long[] failoverMillis = failovers(settings.kills(), nodes, client, producer, batch);
                    out.printf(Locale.ROOT, "failover (%d kills, kill to first confirm): p50 %d ms, p90 %d ms, " +
                            "p99 %d ms, max %d ms%n", failoverMillis.length, percentile(failoverMillis, 0.50),
                        percentile(failoverMillis, 0.90), percentile(failoverMillis, 0.99),
                        failoverMillis[failoverMillis.length - 1]);
                }
            }
        }
        out.flush();
    }

    /** Sends {@code batches} batches, at most {@code inFlight} unconfirmed; returns the nanoseconds it took. */
    private static long publish(final long batches, final int inFlight,
        final Function<Long, CompletableFuture<?>> send) throws InterruptedException
    {
        final Semaphore window = new Semaphore(inFlight);
        final long start = System.nanoTime();
        for (long i = 0; i < batches; i++)
        {
            window.acquire();
            send.apply(i).whenComplete((confirm, failure) -> window.release());
        }
        window.acquire(inFlight);
        return System.nanoTime() - start;
    }

    private static double recordsPerSecond(final long records, final long nanos)
    {
        return records * 1e9 / nanos;
    }

    /** Kills the leader {@code kills} times; each time the time to the first confirm after it, sorted. */
    private static long[] failovers(final int kills, final ClusterNodeProcesses nodes, final ClusterClient client,
        final ClusterProducer producer, final List<ProducerRecord> batch) throws InterruptedException
    {
        final long[] millis = new long[kills];
        for (int kill = 0; kill < kills; kill++)
        {
            producer.send(TOPIC, 0, batch).join();
            final int leader = client.leaderOf(TOPIC, 0);
            final long killedAt = System.nanoTime();
            nodes.kill(leader);
            producer.send(TOPIC, 0, batch).join();
            millis[kill] = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
            nodes.start(leader);
        }
        Arrays.sort(millis);
        return millis;
    }

    private static long percentile(final long[] sorted, final double quantile)
    {
        return sorted[Math.min(sorted.length - 1, (int)Math.ceil(quantile * sorted.length) - 1)];
    }
}
