package io.spool.perf.bench;

import io.spool.api.SpoolException;
import io.spool.api.stream.PublishListener;
import io.spool.wire.client.ProducerConfig;
import io.spool.wire.client.RemoteProducer;
import io.spool.wire.client.SpoolClient;
import org.HdrHistogram.AtomicHistogram;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Publishes a run's records over one connection at the load's pace, each record's first 8 bytes the time it was due
 * (so that its consumers, in this process, can tell its end-to-end latency), spread over the topic's partitions in
 * turn, and samples publish-to-confirm latency from that time. The send path reuses one value buffer: the producer
 * copies each record into its batch. Confirms arrive on the connection's thread. Thread-safe for that pair: one
 * publishing thread, one confirming.
 */
final class PacedPublisher implements PublishListener
{
    /** Every this many records, one's due time is kept for its publish-to-confirm latency. */
    static final int LATENCY_SAMPLE_EVERY = 64;
    /** Sampled due times kept; more than the records a producer may have unconfirmed, so none is overwritten. */
    private static final int SAMPLE_RING = 1 << 16;
    private static final long AWAIT_PARK_NANOS = 50_000;

    private final long[] dueNanos = new long[SAMPLE_RING];
    private final AtomicHistogram confirmLatency = LatencyHistograms.newHistogram();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong confirmed = new AtomicLong();
    private final AtomicReference<SpoolException> failure = new AtomicReference<>();

    /** What a publish run did: records sent and confirmed, and when it started, stopped sending and was confirmed. */
    record Outcome(long records, long startNanos, long sentNanos, long confirmedNanos)
    {
    }

    long sent()
    {
        return sent.get();
    }

    long confirmed()
    {
        return confirmed.get();
    }

    AtomicHistogram confirmLatency()
    {
        return confirmLatency;
    }

    /**
     * Publishes until the load's duration passes or its cap is reached, then waits for every confirm.
     *
     * @throws IllegalStateException when a publish failed.
     */
    Outcome publish(final SpoolClient client, final String topic, final RemoteLoad load)
    {
        final byte[] value = Payloads.printable(load.payloadBytes());
        final UnsafeBuffer stamp = new UnsafeBuffer(value);
        final long start = System.nanoTime();
        final Pacer pacer = new Pacer(load.rate(), start);
        long records = 0;
        try (RemoteProducer producer = client.newProducer(ProducerConfig.builder().batchBytes(load.batchBytes())
            .build(), this))
        {
            while (true)
            {
                final long due = pacer.awaitDue(records);
                if (load.done(records, due, start))
                {
                    break;
                }
                if (records % LATENCY_SAMPLE_EVERY == 0)
                {
                    dueNanos[(int)(records / LATENCY_SAMPLE_EVERY % SAMPLE_RING)] = due;
                }
                stamp.putLong(0, due, ByteOrder.LITTLE_ENDIAN);
                producer.sendToPartition(topic, (int)(records % load.partitions()), null, null, value, records);
                records++;
                sent.lazySet(records);
            }
            final long sentNanos = System.nanoTime();
            producer.flush();
            while (confirmed.get() < records)
            {
                LockSupport.parkNanos(AWAIT_PARK_NANOS);
            }
            if (failure.get() != null)
            {
                throw new IllegalStateException("a publish to " + load.serverName() + " failed: " +
                    failure.get().getMessage(), failure.get());
            }
            return new Outcome(records, start, sentNanos, System.nanoTime());
        }
    }

    @Override
    public void onPublished(final long correlation, final String topic, final int partition, final long offset)
    {
        if (correlation % LATENCY_SAMPLE_EVERY == 0)
        {
            LatencyHistograms.record(confirmLatency,
                System.nanoTime() - dueNanos[(int)(correlation / LATENCY_SAMPLE_EVERY % SAMPLE_RING)]);
        }
        confirmed.lazySet(confirmed.get() + 1);
    }

    @Override
    public void onFailed(final long correlation, final String topic, final int partition, final SpoolException error)
    {
        failure.compareAndSet(null, error);
        confirmed.lazySet(confirmed.get() + 1);
    }
}
