package io.spool.queue.internal.store;

import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.CorruptStateException;
import io.spool.queue.DeadLetterHandler;
import io.spool.queue.StateStorageException;
import io.spool.queue.internal.state.SubscriptionPartitionState;
import io.spool.queue.internal.table.OffsetWindow;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.SystemEpochClock;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a subscription partition's state directory without changing it and reports what an open would restore:
 * for operators checking a state before or instead of starting the engine. Stateless and thread-safe.
 */
final class StateVerifier
{
    private StateVerifier()
    {
    }

    /**
     * @param settings the subscription's settings; only the delivery limit matters here.
     * @throws CorruptStateException if the snapshot is missing or damaged, or a journal header is wrong.
     * @throws StateStorageException if a file cannot be read.
     */
    public static StateReport verify(final Path directory, final SubscriptionSettings settings)
    {
        final Path snapshotFile = directory.resolve(SnapshotDescriptor.FILE_NAME);
        if (!Files.exists(snapshotFile))
        {
            throw new CorruptStateException("no snapshot " + SnapshotDescriptor.FILE_NAME + " in " + directory);
        }
        final StateSnapshot.Restored restored = StateSnapshot.read(snapshotFile, settings, SystemEpochClock.INSTANCE,
            DeadLetterHandler.NONE);
        final SubscriptionPartitionState state = restored.state;
        final Long2LongHashMap delays = restored.delayUntilByOffset;
        final Path journalFile = directory.resolve(JournalDescriptor.fileName(restored.generation));
        final long journalValidBytes = JournalReader.replay(journalFile, restored.generation,
            new StateRestorer(state, delays));

        final OffsetWindow window = state.window();
        long acked = 0;
        long dead = 0;
        long delayed = 0;
        long available = 0;
        long overLimit = 0;
        int maxDeliveries = 0;
        for (long offset = window.floor(), cursor = state.readCursor(); offset < cursor; offset++)
        {
            if (window.isSettled(offset))
            {
                if (window.isDead(offset))
                {
                    dead++;
                }
                else
                {
                    acked++;
                }
                continue;
            }
            final int deliveries = window.deliveryCount(offset);
            maxDeliveries = Math.max(maxDeliveries, deliveries);
            if (delays.containsKey(offset))
            {
                delayed++;
            }
            else if (settings.hasDeliveryLimit() && deliveries > settings.deliveryLimit())
            {
                overLimit++;
            }
            else
            {
                available++;
            }
        }
        return new StateReport(state.partition(), restored.generation, window.floor(), state.readCursor(), acked,
            dead, delayed, available, overLimit, maxDeliveries, size(snapshotFile), JournalReader.writtenLength(journalFile),
            journalValidBytes);
    }

    private static long size(final Path file)
    {
        try
        {
            return Files.exists(file) ? Files.size(file) : 0;
        }
        catch (final IOException ex)
        {
            throw new StateStorageException("reading the size of " + file + " failed", ex);
        }
    }
}
