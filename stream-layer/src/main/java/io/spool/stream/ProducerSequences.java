package io.spool.stream;

import io.spool.log.DurableFiles;
import io.spool.log.FileSync;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Idempotent producers, as Kafka has them: a producer id (from {@link #newProducerId()}) with an epoch numbers each
 * batch it sends to a partition with the sequence of its first record. A retried batch (same id, epoch and
 * sequences as one of the last {@link #RETAINED_BATCHES} appended to that partition) is not stored again and is
 * answered with the first one's offset; a batch that skips sequences is refused, and so is one from an older epoch.
 * The check and the append happen under the partition's lock, so batches are stored in the order they were
 * accepted. Producer state lives in memory and is saved when the engine closes ({@link #save}), so a producer
 * retrying across a clean restart is still recognised; after a crash a producer's next batch starts it afresh,
 * at any sequence, as Kafka does for a producer it no longer knows. Thread-safe.
 */
public final class ProducerSequences
{
    public static final int RETAINED_BATCHES = 5;
    private static final long IDS_PER_MILLISECOND = 1000;
    private static final int FILE_MAGIC = 0x5350_5053; // "SPPS": Spool producer sequences

    private final AtomicLong nextProducerId;
    private final Map<TopicPartition, PartitionSequences> partitions = new ConcurrentHashMap<>();

    /**
     * @param nowMillis the time the engine opened: ids start from it, so a reopened engine does not hand out the
     *                  ids of the run before unless that run gave out more than a thousand ids a millisecond.
     */
    ProducerSequences(final long nowMillis)
    {
        this.nextProducerId = new AtomicLong(nowMillis * IDS_PER_MILLISECOND);
    }

    public long newProducerId()
    {
        return nextProducerId.incrementAndGet();
    }

    /**
     * Checks a batch of {@code recordCount} records against the producer's last batches in {@code partition} and,
     * when it is the next one, calls {@code append} (under the partition's lock) to store it.
     *
     * @param append stores the batch and completes with its first record's offset.
     */
    public SequencedAppend append(final TopicPartition partition, final long producerId, final short epoch,
        final int baseSequence, final int recordCount, final Supplier<CompletableFuture<Long>> append)
    {
        if (recordCount < 1 || baseSequence < 0)
        {
            throw new InvalidRequestException("a sequenced batch needs a sequence >= 0 and a record, got sequence " +
                baseSequence + " and " + recordCount + " records");
        }
        return partitions.computeIfAbsent(partition, p -> new PartitionSequences())
            .append(producerId, epoch, baseSequence, lastSequence(baseSequence, recordCount), append);
    }

    /** Forgets every producer's state in the partitions of a deleted topic. */
    public void forgetTopic(final String topic)
    {
        partitions.keySet().removeIf(partition -> partition.topic().equals(topic));
    }

    /**
     * Writes the stored batches of every producer (atomically replacing {@code file}); batches not yet stored are
     * left out, their producers retry them.
     */
    public void save(final FileSync sync, final Path file)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes))
        {
            out.writeInt(FILE_MAGIC);
            out.writeLong(nextProducerId.get());
            for (final Map.Entry<TopicPartition, PartitionSequences> partition : partitions.entrySet())
            {
                partition.getValue().save(partition.getKey(), out);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot encode producer sequences", ex);
        }
        DurableFiles.replace(sync, file, bytes.toByteArray());
    }

    /** Reads what {@link #save} wrote; a missing file leaves this empty. */
    void load(final Path file)
    {
        final byte[] content = DurableFiles.read(file);
        if (content == null)
        {
            return;
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(content)))
        {
            if (in.readInt() != FILE_MAGIC)
            {
                throw new CorruptFileException("producer sequence file " + file.getFileName() +
                    " does not start with its magic number");
            }
            nextProducerId.accumulateAndGet(in.readLong(), Math::max);
            while (in.available() > 0)
            {
                final TopicPartition partition = new TopicPartition(in.readUTF(), in.readInt());
                final long producerId = in.readLong();
                final short epoch = in.readShort();
                final int batches = in.readInt();
                final ProducerState state = new ProducerState(epoch);
                for (int i = 0; i < batches; i++)
                {
                    state.add(in.readInt(), in.readInt(), CompletableFuture.completedFuture(in.readLong()));
                }
                partitions.computeIfAbsent(partition, p -> new PartitionSequences()).producers.put(producerId, state);
            }
        }
        catch (final IOException ex)
        {
            throw new CorruptFileException("producer sequence file " + file.getFileName() + " is cut short");
        }
    }

    /** The sequence of the last record of a batch; sequences wrap from {@code Integer.MAX_VALUE} to 0 as Kafka's. */
    static int lastSequence(final int baseSequence, final int recordCount)
    {
        final int increment = recordCount - 1;
        return baseSequence > Integer.MAX_VALUE - increment ?
            increment - (Integer.MAX_VALUE - baseSequence) - 1 : baseSequence + increment;
    }

    private static int nextSequence(final int lastSequence)
    {
        return lastSequence == Integer.MAX_VALUE ? 0 : lastSequence + 1;
    }

    /** The producers of one partition. */
    private static final class PartitionSequences
    {
        private final Map<Long, ProducerState> producers = new HashMap<>();

        synchronized SequencedAppend append(final long producerId, final short epoch, final int firstSequence,
            final int lastSequence, final Supplier<CompletableFuture<Long>> append)
        {
            ProducerState state = producers.get(producerId);
            if (state != null && epoch < state.epoch)
            {
                return SequencedAppend.refused(SequencedAppend.Outcome.FENCED_EPOCH, "producer " + producerId +
                    " sent epoch " + epoch + ", older than its current epoch " + state.epoch);
            }
            if (state != null && epoch > state.epoch)
            {
                if (firstSequence != 0)
                {
                    return SequencedAppend.refused(SequencedAppend.Outcome.OUT_OF_ORDER_SEQUENCE, "producer " +
                        producerId + " starts epoch " + epoch + " at sequence " + firstSequence + ", not 0");
                }
                state = null;
            }
            if (state != null)
            {
                final SentBatch duplicate = state.find(firstSequence, lastSequence);
                if (duplicate != null)
                {
                    return new SequencedAppend(SequencedAppend.Outcome.DUPLICATE, duplicate.baseOffset, null);
                }
                final int expected = nextSequence(state.lastSequence());
                if (firstSequence != expected)
                {
                    return SequencedAppend.refused(SequencedAppend.Outcome.OUT_OF_ORDER_SEQUENCE, "producer " +
                        producerId + " sent sequence " + firstSequence + " where " + expected + " was expected");
                }
            }
            else
            {
                state = new ProducerState(epoch);
                producers.put(producerId, state);
            }
            final CompletableFuture<Long> baseOffset = append.get();
            final SentBatch sent = state.add(firstSequence, lastSequence, baseOffset);
            final ProducerState owner = state;
            baseOffset.whenComplete((offset, failure) ->
            {
                if (failure != null)
                {
                    forgetFailed(producerId, owner, sent);
                }
            });
            return new SequencedAppend(SequencedAppend.Outcome.APPENDED, baseOffset, null);
        }

        synchronized void save(final TopicPartition partition, final DataOutputStream out) throws IOException
        {
            for (final Map.Entry<Long, ProducerState> producer : producers.entrySet())
            {
                final java.util.List<SentBatch> stored = producer.getValue().batches.stream()
                    .filter(batch -> batch.baseOffset.isDone() && !batch.baseOffset.isCompletedExceptionally())
                    .toList();
                out.writeUTF(partition.topic());
                out.writeInt(partition.partition());
                out.writeLong(producer.getKey());
                out.writeShort(producer.getValue().epoch);
                out.writeInt(stored.size());
                for (final SentBatch batch : stored)
                {
                    out.writeInt(batch.firstSequence);
                    out.writeInt(batch.lastSequence);
                    out.writeLong(batch.baseOffset.join());
                }
            }
        }

        /** A batch that was not stored leaves the producer where it was before it, so its retry is accepted. */
        private synchronized void forgetFailed(final long producerId, final ProducerState state, final SentBatch sent)
        {
            state.remove(sent);
            if (state.isEmpty() && producers.get(producerId) == state)
            {
                producers.remove(producerId);
            }
        }
    }

    /** The last batches of one producer in one partition, oldest first. */
    private static final class ProducerState
    {
        private final short epoch;
        private final ArrayDeque<SentBatch> batches = new ArrayDeque<>(RETAINED_BATCHES + 1);

        ProducerState(final short epoch)
        {
            this.epoch = epoch;
        }

        int lastSequence()
        {
            return batches.getLast().lastSequence;
        }

        SentBatch find(final int firstSequence, final int lastSequence)
        {
            for (final SentBatch batch : batches)
            {
                if (batch.firstSequence == firstSequence && batch.lastSequence == lastSequence)
                {
                    return batch;
                }
            }
            return null;
        }

        SentBatch add(final int firstSequence, final int lastSequence, final CompletableFuture<Long> baseOffset)
        {
            final SentBatch batch = new SentBatch(firstSequence, lastSequence, baseOffset);
            batches.addLast(batch);
            if (batches.size() > RETAINED_BATCHES)
            {
                batches.removeFirst();
            }
            return batch;
        }

        void remove(final SentBatch batch)
        {
            final Iterator<SentBatch> all = batches.iterator();
            while (all.hasNext())
            {
                if (all.next() == batch)
                {
                    all.remove();
                    return;
                }
            }
        }

        boolean isEmpty()
        {
            return batches.isEmpty();
        }
    }

    private record SentBatch(int firstSequence, int lastSequence, CompletableFuture<Long> baseOffset)
    {
    }
}
