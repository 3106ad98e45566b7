package io.spool.queue.internal.store;

import io.spool.api.queue.SubscriptionSettings;
import io.spool.log.DurableFiles;
import io.spool.queue.CorruptStateException;
import io.spool.queue.DeadLetterHandler;
import io.spool.queue.StateDurability;
import io.spool.queue.StateStorageException;
import io.spool.queue.StateStoreConfig;
import io.spool.queue.internal.state.MessageInspector;
import io.spool.queue.internal.state.StateLog;
import io.spool.queue.internal.state.SubscriptionPartitionState;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.EpochClock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Keeps one subscription partition's state durable in a directory: a snapshot ({@code snapshot.bin}) and the
 * journal of changes since it ({@code journal-<generation>.log}). Opening restores the state exactly: acks,
 * dead-letters, delivery counts and delays; deliveries that were held become available again, redelivered, as
 * after a lost connection. Not thread-safe: owned by the thread that owns the state.
 * <p>
 * The owner calls {@link #commit()} after a batch of operations and before it tells anyone about them (hands out
 * deliveries, confirms acks). A committed change is in the file when commit returns, so it survives the process
 * being killed; {@link StateDurability} decides when it is forced to the disk. A commit that finds the journal
 * past the compaction threshold writes a snapshot and starts a new, empty journal.
 */
public final class SubscriptionStateStore implements AutoCloseable
{
    private final Path directory;
    private final StateStoreConfig config;
    private final SubscriptionPartitionState state;
    private final StateJournal journal;
    private final long truncatedBytes;
    private final String snapshotDamage;
    private long generation;
    private long snapshotBytes;

    private SubscriptionStateStore(
        final Path directory, final StateStoreConfig config, final SubscriptionPartitionState state,
        final StateJournal journal, final long generation, final long snapshotBytes, final long truncatedBytes,
        final String snapshotDamage)
    {
        this.snapshotDamage = snapshotDamage;
        this.directory = directory;
        this.config = config;
        this.state = state;
        this.journal = journal;
        this.generation = generation;
        this.snapshotBytes = snapshotBytes;
        this.truncatedBytes = truncatedBytes;
    }

    /**
     * Opens the state in {@code directory}, creating it at {@code startOffset} if the directory holds none.
     * Messages that were held past their delivery limit when the process stopped go dead now, through
     * {@code deadLetters}.
     *
     * A damaged snapshot is read from its copy ({@link #snapshotDamage()} says why).
     *
     * @throws CorruptStateException if the snapshot and its copy are damaged, or it belongs to another partition.
     * @throws StateStorageException if the files cannot be read or written.
     */
    public static SubscriptionStateStore open(
        final Path directory,
        final int partition,
        final SubscriptionSettings settings,
        final long startOffset,
        final EpochClock clock,
        final StateStoreConfig config,
        final DeadLetterHandler deadLetters)
    {
        return open(directory, partition, settings, startOffset, clock, config, deadLetters, null);
    }

    /**
     * Like {@link #open(Path, int, SubscriptionSettings, long, EpochClock, StateStoreConfig, DeadLetterHandler)},
     * reading message traits from the log with {@code expiryInspector} so that a restored message past its
     * delivery limit whose time to live has passed dies as expired.
     */
    public static SubscriptionStateStore open(
        final Path directory,
        final int partition,
        final SubscriptionSettings settings,
        final long startOffset,
        final EpochClock clock,
        final StateStoreConfig config,
        final DeadLetterHandler deadLetters,
        final MessageInspector expiryInspector)
    {
        try
        {
            DurableFiles.createDirectories(config.fileSync(), directory);
        }
        catch (final UncheckedIOException ex)
        {
            throw new StateStorageException("creating the subscription state directory " + directory + " failed",
                ex.getCause());
        }
        final Path snapshotFile = directory.resolve(SnapshotDescriptor.FILE_NAME);
        final SubscriptionPartitionState state;
        final long generation;
        final Long2LongHashMap delays;
        final long snapshotBytes;
        final String snapshotDamage;
        if (StateSnapshot.exists(directory))
        {
            final StateSnapshot.Restored restored = StateSnapshot.readEither(directory, settings, clock, deadLetters,
                config.fileSync());
            if (restored.state.partition() != partition)
            {
                throw new CorruptStateException("snapshot " + snapshotFile + " is for partition " +
                    restored.state.partition() + ", not partition " + partition);
            }
            state = restored.state;
            generation = restored.generation;
            delays = restored.delayUntilByOffset;
            snapshotBytes = size(snapshotFile);
            snapshotDamage = restored.damage;
        }
        else
        {
            refuseOrphanJournals(directory);
            state = new SubscriptionPartitionState(partition, settings, clock, startOffset, deadLetters,
                StateLog.NONE);
            generation = 0;
            delays = new Long2LongHashMap(Long.MIN_VALUE);
            snapshotBytes = StateSnapshot.write(directory, state, generation, config.fileSync());
            snapshotDamage = null;
        }
        final Path journalFile = directory.resolve(JournalDescriptor.fileName(generation));
        final StateRestorer restorer = new StateRestorer(state, delays);
        final long validLength = JournalReader.replay(journalFile, generation, restorer);
        final long truncatedBytes = Math.max(0, JournalReader.writtenLength(journalFile) - validLength);
        deleteStaleFiles(directory, journalFile);
        final StateJournal journal = new StateJournal(journalFile, generation, validLength,
            config.durability(), config.journalWindowBytes(), config.fileSync(), clock);
        state.stateLog(journal);
        restorer.complete();
        if (expiryInspector != null)
        {
            state.readAheadInspector(expiryInspector);
        }
        state.restore().finish();
        journal.commit();
        return new SubscriptionStateStore(directory, config, state, journal, generation, snapshotBytes,
            truncatedBytes, snapshotDamage);
    }

    public SubscriptionPartitionState state()
    {
        return state;
    }

    /**
     * Writes the changes since the last commit to the journal, forces it per the durability policy, and compacts
     * the journal into a snapshot when it passed the threshold.
     *
     * @throws StateStorageException if the write fails.
     */
    public void commit()
    {
        journal.commit();
        // A snapshot keeps no dead letters owed: compaction waits until the dead-letter topic confirmed them, which
        // takes one round trip of its pipeline, so no crash between a snapshot and its new journal can forget one.
        if (journal.fileLength() >= config.compactionThresholdBytes() && state.dueDeadLetters().isEmpty())
        {
            snapshot();
        }
    }

    /**
     * Writes a snapshot of the whole state now and starts a new journal, which owes again the dead letters still
     * owed; the old journal is deleted. Commits compact only while no dead letter is owed, since a crash between the
     * snapshot and the new journal's first commit would forget those owed.
     *
     * @throws StateStorageException if a file cannot be written.
     */
    public void snapshot()
    {
        journal.commit();
        final long next = generation + 1;
        snapshotBytes = StateSnapshot.write(directory, state, next, config.fileSync());
        final Path previous = directory.resolve(JournalDescriptor.fileName(generation));
        final Path current = directory.resolve(JournalDescriptor.fileName(next));
        journal.rollTo(current, next);
        generation = next;
        state.dueDeadLetters().forEach(letter ->
            journal.deadLetterDue(letter.offset, letter.reason, letter.deliveries, letter.timeMillis));
        journal.commit();
        try
        {
            Files.deleteIfExists(previous);
        }
        catch (final IOException ex)
        {
            throw new StateStorageException("deleting the compacted journal " + previous + " failed", ex);
        }
    }

    /** Why the open read the snapshot's copy instead of the snapshot (which it then rewrote), or null. */
    public String snapshotDamage()
    {
        return snapshotDamage;
    }

    /** Journal bytes the last open found past the last valid entry (a torn write) and truncated. */
    public long truncatedBytesOnOpen()
    {
        return truncatedBytes;
    }

    public long journalBytes()
    {
        return journal.fileLength();
    }

    public long snapshotBytes()
    {
        return snapshotBytes;
    }

    /** Commits and forces the journal, then closes it. */
    @Override
    public void close()
    {
        journal.close();
    }

    private static long size(final Path file)
    {
        try
        {
            return Files.size(file);
        }
        catch (final IOException ex)
        {
            throw new StateStorageException("reading the size of " + file + " failed", ex);
        }
    }

    /** A journal without the snapshot it follows cannot be replayed exactly; starting afresh would drop its acks. */
    private static void refuseOrphanJournals(final Path directory)
    {
        try (DirectoryStream<Path> journals = Files.newDirectoryStream(directory, "journal-*.log"))
        {
            for (final Path journal : journals)
            {
                throw new CorruptStateException("journal " + journal + " has no snapshot " +
                    SnapshotDescriptor.FILE_NAME + " beside it; refusing to start afresh and drop its acks");
            }
        }
        catch (final IOException ex)
        {
            throw new StateStorageException("listing state files in " + directory + " failed", ex);
        }
    }

    /** Removes a journal left behind by a compaction that stopped before deleting it, and a half-written snapshot. */
    private static void deleteStaleFiles(final Path directory, final Path currentJournal)
    {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "{journal-*.log,snapshot.tmp}"))
        {
            for (final Path file : files)
            {
                if (!file.equals(currentJournal))
                {
                    Files.delete(file);
                }
            }
        }
        catch (final IOException ex)
        {
            throw new StateStorageException("removing stale state files in " + directory + " failed", ex);
        }
    }
}
