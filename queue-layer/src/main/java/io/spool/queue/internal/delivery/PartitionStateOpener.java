package io.spool.queue.internal.delivery;

import io.spool.api.queue.SubscriptionSettings;
import io.spool.log.DurableFiles;
import io.spool.log.OpenReport;
import io.spool.log.PartitionLog;
import io.spool.queue.CorruptStateException;
import io.spool.queue.DeadLetterHandler;
import io.spool.queue.StateStoreConfig;
import io.spool.queue.internal.store.SubscriptionStateStore;
import org.agrona.concurrent.EpochClock;

import java.nio.file.Path;

/**
 * Opens one subscription partition's state store and squares it with the log it describes. State that reaches past
 * the log's end (recovery cut the log below the read cursor or the ack floor) would take the records that come to
 * take those offsets as delivered or acked, and never deliver them; so it starts again from the lower of its ack
 * floor and the log's end, and the open report says so. Stateless, thread-safe; the stores it opens are not.
 */
public final class PartitionStateOpener
{
    private final StateStoreConfig config;
    private final OpenReport report;

    public PartitionStateOpener(final StateStoreConfig config, final OpenReport report)
    {
        this.config = config;
        this.report = report;
    }

    /**
     * @param startOffset where a partition without state starts.
     * @throws CorruptStateException when the state's snapshot and its copy are both damaged.
     */
    public SubscriptionStateStore open(final String subscription, final Path directory, final int partition,
        final SubscriptionSettings settings, final PartitionLog log, final long startOffset, final EpochClock clock,
        final PartitionWorker worker)
    {
        final SubscriptionStateStore store = open(directory, partition, settings, startOffset, clock, worker);
        final String subject = "subscription " + subscription + " partition " + partition;
        if (store.snapshotDamage() != null)
        {
            report.add(OpenReport.Action.RESTORED_FROM_COPY, subject, store.snapshotDamage() +
                "; read the snapshot's copy, nothing lost");
        }
        final long end = log.endOffset();
        final long floor = store.state().ackFloor();
        final long cursor = store.state().readCursor();
        if (cursor <= end)
        {
            return store;
        }
        store.close();
        DurableFiles.deleteTree(directory);
        final long from = Math.min(floor, end);
        report.add(OpenReport.Action.MOVED_TO_LOG_END, subject, "its read cursor " + cursor + " and ack floor " +
            floor + " are past the log's end " + end + " (recovery cut the log); its state starts again at offset " +
            from + ", so the messages from there on are delivered (those below the old cursor again) and new " +
            "messages reach it");
        return open(directory, partition, settings, from, clock, worker);
    }

    private SubscriptionStateStore open(final Path directory, final int partition, final SubscriptionSettings settings,
        final long startOffset, final EpochClock clock, final PartitionWorker worker)
    {
        return SubscriptionStateStore.open(directory, partition, settings, startOffset, clock, config,
            DeadLetterHandler.NONE, worker.readAheadInspector(settings));
    }
}
