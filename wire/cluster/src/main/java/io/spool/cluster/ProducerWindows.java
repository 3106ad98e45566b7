package io.spool.cluster;

import io.netty.buffer.ByteBuf;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a partition's state machine remembers of each producer, to store a retried batch once: the last
 * {@link #RETAINED_BATCHES} batches it appended (sequence, first offset, record count). A batch whose sequence is at
 * or below the producer's highest is a retry; one of the retained batches is answered with its first offset, an
 * older one is refused as too old to place. Producers are forgotten least recently used first beyond
 * {@link #MAX_PRODUCERS}.
 * <p>
 * Design note: this state is rebuilt on every node by applying the same entries in the same order, so every node
 * keeps the same windows and the same answer comes from whichever node leads; nothing here reads a clock. A
 * snapshot keeps them ({@link #writeTo}), so a node that loads it answers retries of batches before it the same way.
 * Not thread-safe: owned by the state machine's apply thread.
 */
final class ProducerWindows
{
    static final int RETAINED_BATCHES = 5;
    static final int MAX_PRODUCERS = 10_000;

    /** A retained batch: where its records went. */
    record Batch(long sequence, long baseOffset, int count)
    {
    }

    private static final class Window
    {
        final Batch[] batches = new Batch[RETAINED_BATCHES];
        int next;
        long highest = Long.MIN_VALUE;
        /** A Kafka producer's epoch; -1 for a producer without one. */
        int epoch = -1;

        Batch last()
        {
            return batches[(next + RETAINED_BATCHES - 1) % RETAINED_BATCHES];
        }

        Batch find(final long sequence)
        {
            for (final Batch batch : batches)
            {
                if (batch != null && batch.sequence() == sequence)
                {
                    return batch;
                }
            }
            return null;
        }
    }

    private final Map<Long, Window> producers = new LinkedHashMap<>(16, 0.75f, true)
    {
        @Override
        protected boolean removeEldestEntry(final Map.Entry<Long, Window> eldest)
        {
            return size() > MAX_PRODUCERS;
        }
    };

    /** True when {@code sequence} is not above the producer's highest: the batch was appended before. */
    boolean isRetry(final long producerId, final long sequence)
    {
        final Window window = producers.get(producerId);
        return window != null && sequence <= window.highest;
    }

    /** The retained batch of a retry, or null when it is older than every retained one. */
    Batch retained(final long producerId, final long sequence)
    {
        final Window window = producers.get(producerId);
        return window == null ? null : window.find(sequence);
    }

    /** The producer's last appended batch, or null when it is not remembered. */
    Batch last(final long producerId)
    {
        final Window window = producers.get(producerId);
        return window == null ? null : window.last();
    }

    /** The epoch a Kafka producer's batches were appended under, or -1 when it is not remembered. */
    int epoch(final long producerId)
    {
        final Window window = producers.get(producerId);
        return window == null ? -1 : window.epoch;
    }

    /** Starts a Kafka producer over at {@code epoch}: its batches of an earlier epoch are forgotten. */
    void startEpoch(final long producerId, final int epoch)
    {
        final Window window = new Window();
        window.epoch = epoch;
        producers.put(producerId, window);
    }

    /**
     * Writes every window, least recently used producer first, each batch oldest first: producer count (int32), then
     * per producer its id (int64), Kafka epoch (int32, -1 for none), batch count (int32) and per batch sequence
     * (int64), first offset (int64) and record count (int32).
     */
    void writeTo(final ByteBuf out)
    {
        out.writeIntLE(producers.size());
        for (final Map.Entry<Long, Window> producer : producers.entrySet())
        {
            final Window window = producer.getValue();
            out.writeLongLE(producer.getKey());
            out.writeIntLE(window.epoch);
            final int countAt = out.writerIndex();
            out.writeIntLE(0);
            int count = 0;
            for (int i = 0; i < RETAINED_BATCHES; i++)
            {
                final Batch batch = window.batches[(window.next + i) % RETAINED_BATCHES];
                if (batch != null)
                {
                    out.writeLongLE(batch.sequence()).writeLongLE(batch.baseOffset()).writeIntLE(batch.count());
                    count++;
                }
            }
            out.setIntLE(countAt, count);
        }
    }

    /** Replaces every window with those {@link #writeTo} wrote, in the same order, so the same ones are forgotten. */
    void readFrom(final ByteBuf in)
    {
        producers.clear();
        for (int producer = 0, producerCount = in.readIntLE(); producer < producerCount; producer++)
        {
            final long producerId = in.readLongLE();
            final Window window = new Window();
            window.epoch = in.readIntLE();
            producers.put(producerId, window);
            for (int batch = 0, batchCount = in.readIntLE(); batch < batchCount; batch++)
            {
                appended(producerId, in.readLongLE(), in.readLongLE(), in.readIntLE());
            }
        }
    }

    void appended(final long producerId, final long sequence, final long baseOffset, final int count)
    {
        final Window window = producers.computeIfAbsent(producerId, id -> new Window());
        window.batches[window.next] = new Batch(sequence, baseOffset, count);
        window.next = (window.next + 1) % RETAINED_BATCHES;
        window.highest = sequence;
    }
}
