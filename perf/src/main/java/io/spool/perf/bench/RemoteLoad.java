package io.spool.perf.bench;

import io.spool.api.log.Durability;
import io.spool.wire.client.ClientConfig;

import java.util.concurrent.TimeUnit;

/**
 * What a benchmark against a running server runs: where the server is, the topic it creates for the run, the
 * producer's pace and how long it publishes. Immutable, thread-safe.
 *
 * @param server           how to reach the server; each connection the run opens uses it.
 * @param serverName       the server, for results and messages: {@code server 10.0.0.5:7420}.
 * @param partitions       partitions of the run's topic.
 * @param durability       the topic's durability.
 * @param payloadBytes     value size of each record; its first 8 bytes carry the time it was due.
 * @param batchBytes       the producer's batch size.
 * @param rate             target records per second; 0 publishes as fast as the producer goes.
 * @param durationNanos    how long the producer publishes.
 * @param maxRecords       a cap on the records published; 0 for none (the duration ends the run).
 * @param progressNanos    how often a progress line is printed.
 */
public record RemoteLoad(ClientConfig server, String serverName, int partitions, Durability durability,
    int payloadBytes, int batchBytes, double rate, long durationNanos, long maxRecords, long progressNanos)
{
    /** How long consumers may take to catch up once the producer stopped before the run gives up on them. */
    static final long DRAIN_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(60);

    /**
     * @throws IllegalArgumentException naming what cannot run.
     */
    public RemoteLoad
    {
        if (partitions < 1 || payloadBytes < Long.BYTES || payloadBytes > BenchSettings.MAX_PAYLOAD_BYTES ||
            batchBytes < 1 || rate < 0 || Double.isNaN(rate) || durationNanos <= 0 || maxRecords < 0 ||
            progressNanos <= 0)
        {
            throw new IllegalArgumentException("a run against a server needs at least 1 partition, a payload of " +
                Long.BYTES + " (the publish time) to " + BenchSettings.MAX_PAYLOAD_BYTES + " bytes, a batch of at " +
                "least 1 byte, a rate >= 0 (0 for no limit), a positive duration and progress interval and a " +
                "record cap >= 0; were " + partitions + ", " + payloadBytes + ", " + batchBytes + ", " + rate +
                ", " + durationNanos + " ns, " + progressNanos + " ns and " + maxRecords);
        }
    }

    /**
     * Whether the run has published enough: the next record would be due when the duration has passed, or the cap
     * was reached.
     */
    boolean done(final long published, final long nextDueNanos, final long startNanos)
    {
        return nextDueNanos - startNanos >= durationNanos || (maxRecords > 0 && published >= maxRecords);
    }
}
