package io.spool.stream;

import io.spool.api.InvalidRequestException;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicPartition;
import io.spool.log.DurableFiles;
import io.spool.log.FileSync;
import io.spool.stream.internal.producer.ProducerJournal;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

/**
 * Idempotent producers, as Kafka has them: a producer id (from {@link #newProducerId()}) with an epoch numbers each
 * batch it sends to a partition with the sequence of its first record. A retried batch (same id, epoch and
 * sequences as one of the last {@link #RETAINED_BATCHES} appended to that partition) is not stored again and is
 * answered with the first one's offset; a batch that skips sequences is refused, and so is one from an older epoch.
 * The check and the append happen under the partition's lock, so batches are stored in the order they were
 * accepted. Each partition's producers are kept in a {@link ProducerJournal} written before a batch is appended,
 * and rebuilt from it when the engine opens ({@link #recover}): a batch that was in flight at a crash is looked for
 * in the log ({@link StoredBatches}), so a retry of one stored just before the crash is recognised and one that was
 * not stored is taken; the retry of one whose first records the crash left at the log's end stores only the rest. A
 * producer none of whose batches is known any more starts afresh at any sequence, as Kafka does for a producer it
 * no longer knows. Thread-safe.
 */
public final class ProducerSequences
{
    public static final int RETAINED_BATCHES = 5;
    private static final long IDS_PER_MILLISECOND = 1000;
    private static final int FILE_MAGIC = 0x5350_5053; // "SPPS": Spool producer sequences

    private final AtomicLong nextProducerId;
    private final Map<TopicPartition, PartitionSequences> partitions = new ConcurrentHashMap<>();
    private final Path journalDirectory;
    private final FileSync sync;
    private final StoredBatches stored;

    /** Producer state in memory only. */
    ProducerSequences(final long nowMillis)
    {
        this(nowMillis, null, null, StoredBatches.NONE);
    }

    /**
     * @param nowMillis        the time the engine opened: ids start from it, so a reopened engine does not hand out
     *                         the ids of the run before unless that run gave out more than a thousand ids a
     *                         millisecond.
     * @param journalDirectory where each partition's journal is kept, one folder a topic; null for none.
     */
    ProducerSequences(final long nowMillis, final Path journalDirectory, final FileSync sync,
        final StoredBatches stored)
    {
        this.nextProducerId = new AtomicLong(nowMillis * IDS_PER_MILLISECOND);
        this.journalDirectory = journalDirectory;
        this.sync = sync;
        this.stored = stored;
    }

    public long newProducerId()
    {
        return nextProducerId.incrementAndGet();
    }

    /**
     * Checks a batch against the producer's last batches in {@code partition} and, when it is the next one, calls
     * {@code appendFrom} with 0 (under the partition's lock) to store it. The retry of a batch whose first records a
     * crash left in the log is given the index of the first record the log does not hold.
     *
     * @param appendFrom stores the batch's records from the index it is given on, and completes with the offset of
     *                   the first one it stored.
     */
    public SequencedAppend append(final TopicPartition partition, final long producerId, final short epoch,
        final int baseSequence, final List<ProducerRecord> records,
        final IntFunction<CompletableFuture<Long>> appendFrom)
    {
        if (records.isEmpty() || baseSequence < 0)
        {
            throw new InvalidRequestException("a sequenced batch needs a sequence >= 0 and a record, got sequence " +
                baseSequence + " and " + records.size() + " records");
        }
        return partitions(partition).append(producerId, epoch, baseSequence,
            lastSequence(baseSequence, records.size()), records, stored.endOffset(partition),
            StoredBatches.fingerprint(records), appendFrom);
    }

    private PartitionSequences partitions(final TopicPartition partition)
    {
        return partitions.computeIfAbsent(partition, p -> new PartitionSequences(p, journal(p), stored));
    }

    private ProducerJournal journal(final TopicPartition partition)
    {
        return journalDirectory == null ? null : new ProducerJournal(journalDirectory.resolve(partition.topic())
            .resolve(Integer.toString(partition.partition())), sync);
    }

    /** Forgets every producer's state in the partitions of a deleted topic, and their journals. */
    public void forgetTopic(final String topic)
    {
        partitions.entrySet().removeIf(partition ->
        {
            final boolean deleted = partition.getKey().topic().equals(topic);
            if (deleted)
            {
                partition.getValue().deleteJournal();
            }
            return deleted;
        });
    }

    /**
     * Rebuilds every partition's producers from its journal, finds in the log the batches that were in flight when
     * the engine stopped, and rewrites the journals with what it found. Called once, when the engine opens.
     */
    void recover()
    {
        if (journalDirectory == null || !Files.isDirectory(journalDirectory))
        {
            return;
        }
        try (DirectoryStream<Path> topics = Files.newDirectoryStream(journalDirectory))
        {
            for (final Path topic : topics)
            {
                try (DirectoryStream<Path> files = Files.newDirectoryStream(topic))
                {
                    for (final Path file : files)
                    {
                        final String name = file.getFileName().toString();
                        if (name.chars().allMatch(Character::isDigit))
                        {
                            partitions(new TopicPartition(topic.getFileName().toString(), Integer.parseInt(name)))
                                .replay();
                        }
                    }
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list the producer journals in " + journalDirectory, ex);
        }
        for (final Map.Entry<TopicPartition, PartitionSequences> partition : partitions.entrySet())
        {
            partition.getValue().resolve();
        }
    }

    /**
     * Writes the next producer id (atomically replacing {@code file}) and rewrites every journal from the producers'
     * state, once the log has stored everything published.
     */
    public void save(final FileSync sync, final Path file)
    {
        for (final PartitionSequences partition : partitions.values())
        {
            partition.compact();
        }
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes))
        {
            out.writeInt(FILE_MAGIC);
            out.writeLong(nextProducerId.get());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot encode producer sequences", ex);
        }
        DurableFiles.replace(sync, file, bytes.toByteArray());
    }

    /**
     * Reads what {@link #save} wrote; a missing file leaves this empty. A file of a version before the journals
     * holds the producers too, which are taken in.
     */
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
                    final int first = in.readInt();
                    final int last = in.readInt();
                    state.add(first, last, CompletableFuture.completedFuture(in.readLong()), 0, 0, 0);
                }
                partitions(partition).producers.put(producerId, state);
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

    /** The producers of one partition, and their journal (null when kept in memory only). */
    private static final class PartitionSequences
    {
        private final TopicPartition partition;
        private final ProducerJournal journal;
        private final StoredBatches log;
        private final Map<Long, ProducerState> producers = new HashMap<>();
        /** The batches not found in the log when the engine opened whose first records may end it. */
        private final Map<SentBatch, CutShort> cutShort = new IdentityHashMap<>();

        PartitionSequences(final TopicPartition partition, final ProducerJournal journal, final StoredBatches log)
        {
            this.partition = partition;
            this.journal = journal;
            this.log = log;
        }

        synchronized SequencedAppend append(final long producerId, final short epoch, final int firstSequence,
            final int lastSequence, final List<ProducerRecord> records, final long lowestOffset,
            final int fingerprint, final IntFunction<CompletableFuture<Long>> appendFrom)
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
                    final CutShort cut = cutShort.remove(duplicate);
                    return cut == null ? new SequencedAppend(SequencedAppend.Outcome.DUPLICATE,
                        duplicate.baseOffset, null) : complete(duplicate, cut, records, appendFrom);
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
            if (journal != null)
            {
                journal.write(ProducerJournal.ACCEPTED, producerId, epoch, firstSequence, lastSequence,
                    records.size(), lowestOffset, fingerprint, -1);
            }
            final CompletableFuture<Long> baseOffset = appendFrom.apply(0);
            final SentBatch sent = state.add(firstSequence, lastSequence, baseOffset, records.size(), lowestOffset,
                fingerprint);
            final ProducerState owner = state;
            baseOffset.whenComplete((offset, failure) -> settled(producerId, owner, sent, failure == null));
            return new SequencedAppend(SequencedAppend.Outcome.APPENDED, baseOffset, null);
        }

        /**
         * The retry of a batch that was not found whole in the log when the engine opened: stores the records of it
         * that the log does not end with, and answers with the offset of its first record. The journal already has
         * the batch accepted; the entry saying where it was stored follows.
         */
        private SequencedAppend complete(final SentBatch batch, final CutShort cut, final List<ProducerRecord> records,
            final IntFunction<CompletableFuture<Long>> appendFrom)
        {
            final long start = log.storedPrefix(partition, cut.from, cut.end, records);
            final int held = start < 0 ? 0 : (int)(cut.end - start);
            if (held > 0)
            {
                // the crash cut one batch short in a partition: the writer stores one batch after the other
                forgetCutShort();
            }
            batch.baseOffset.whenComplete((offset, failure) -> settled(cut.producerId, cut.state, batch,
                failure == null));
            appendFrom.apply(held).whenComplete((offset, failure) ->
            {
                if (failure != null)
                {
                    batch.baseOffset.completeExceptionally(failure);
                }
                else
                {
                    batch.baseOffset.complete(held > 0 ? start : offset);
                }
            });
            return new SequencedAppend(SequencedAppend.Outcome.APPENDED, batch.baseOffset, null);
        }

        private void forgetCutShort()
        {
            for (final Map.Entry<SentBatch, CutShort> other : cutShort.entrySet())
            {
                forget(other.getValue().producerId, other.getValue().state, other.getKey());
            }
            cutShort.clear();
        }

        /**
         * Notes in the journal where a batch was stored, or that it was not: a batch that was not stored leaves the
         * producer where it was before it, so its retry is accepted.
         */
        private synchronized void settled(final long producerId, final ProducerState state, final SentBatch sent,
            final boolean stored)
        {
            if (journal != null)
            {
                journal.write(stored ? ProducerJournal.STORED : ProducerJournal.FAILED, producerId, state.epoch,
                    sent.firstSequence, sent.lastSequence, sent.recordCount, sent.lowestOffset, sent.fingerprint,
                    stored ? sent.baseOffset.join() : -1);
            }
            if (!stored)
            {
                forget(producerId, state, sent);
            }
            if (journal != null && journal.needsRewrite())
            {
                compact();
            }
        }

        private void forget(final long producerId, final ProducerState state, final SentBatch sent)
        {
            state.remove(sent);
            if (state.isEmpty() && producers.get(producerId) == state)
            {
                producers.remove(producerId);
            }
        }

        /** Takes in the journal's entries, in the order they were written. */
        synchronized void replay()
        {
            for (final ProducerJournal.Entry entry : journal.read())
            {
                ProducerState state = producers.get(entry.producerId());
                if (entry.type() == ProducerJournal.ACCEPTED)
                {
                    if (state == null || state.epoch != entry.epoch())
                    {
                        state = new ProducerState(entry.epoch());
                        producers.put(entry.producerId(), state);
                    }
                    state.add(entry.firstSequence(), entry.lastSequence(), new CompletableFuture<>(),
                        entry.recordCount(), entry.lowestOffset(), entry.fingerprint());
                    continue;
                }
                final SentBatch batch = state == null || state.epoch != entry.epoch() ? null :
                    state.find(entry.firstSequence(), entry.lastSequence());
                if (batch == null)
                {
                    continue;
                }
                if (entry.type() == ProducerJournal.STORED)
                {
                    batch.baseOffset.complete(entry.baseOffset());
                }
                else
                {
                    forget(entry.producerId(), state, batch);
                }
            }
        }

        /**
         * Looks in the log for each batch whose journal has no offset, after the producer's batch before it. The
         * first of a producer's batches not found whole may have been cut short by the crash, its first records
         * ending the log (a batch is written a pipeline slot at a time, and split at a segment roll): it is kept for
         * its retry to finish. The others not found were not stored and are forgotten. Then rewrites the journal.
         */
        synchronized void resolve()
        {
            final long end = log.endOffset(partition);
            for (final Map.Entry<Long, ProducerState> producer : new ArrayList<>(producers.entrySet()))
            {
                long after = 0;
                boolean missing = false;
                for (final SentBatch batch : new ArrayList<>(producer.getValue().batches))
                {
                    if (!batch.baseOffset.isDone())
                    {
                        final long from = Math.max(after, batch.lowestOffset);
                        final long found = log.find(partition, from, batch.recordCount, batch.fingerprint);
                        if (found < 0)
                        {
                            if (!missing && from < end)
                            {
                                cutShort.put(batch, new CutShort(producer.getKey(), producer.getValue(), from, end));
                            }
                            else
                            {
                                forget(producer.getKey(), producer.getValue(), batch);
                            }
                            missing = true;
                            continue;
                        }
                        batch.baseOffset.complete(found);
                    }
                    after = batch.baseOffset.join() + batch.recordCount;
                }
            }
            compact();
        }

        /** Rewrites the journal with the producers' batches as they are now. */
        synchronized void compact()
        {
            if (journal == null)
            {
                return;
            }
            final List<ProducerJournal.Entry> entries = new ArrayList<>();
            for (final Map.Entry<Long, ProducerState> producer : producers.entrySet())
            {
                for (final SentBatch batch : producer.getValue().batches)
                {
                    entries.add(batch.entry(ProducerJournal.ACCEPTED, producer.getKey(), producer.getValue().epoch,
                        -1));
                    if (batch.baseOffset.isDone() && !batch.baseOffset.isCompletedExceptionally())
                    {
                        entries.add(batch.entry(ProducerJournal.STORED, producer.getKey(), producer.getValue().epoch,
                            batch.baseOffset.join()));
                    }
                }
            }
            journal.rewrite(entries);
        }

        synchronized void deleteJournal()
        {
            if (journal != null)
            {
                journal.delete();
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

        SentBatch add(final int firstSequence, final int lastSequence, final CompletableFuture<Long> baseOffset,
            final int recordCount, final long lowestOffset, final int fingerprint)
        {
            final SentBatch batch = new SentBatch(firstSequence, lastSequence, baseOffset, recordCount, lowestOffset,
                fingerprint);
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

    /**
     * A batch of {@code producerId} whose first records may lie in {@code [from, end)}, {@code end} being where the
     * log ended when the engine opened.
     */
    private record CutShort(long producerId, ProducerState state, long from, long end)
    {
    }

    /**
     * @param lowestOffset the partition's end when the batch was accepted: it is stored there or after.
     */
    private record SentBatch(int firstSequence, int lastSequence, CompletableFuture<Long> baseOffset,
        int recordCount, long lowestOffset, int fingerprint)
    {
        ProducerJournal.Entry entry(final byte type, final long producerId, final short epoch, final long offset)
        {
            return new ProducerJournal.Entry(type, producerId, epoch, firstSequence, lastSequence, recordCount,
                lowestOffset, fingerprint, offset);
        }
    }
}
