package io.spool.queue.internal.registry;

import io.spool.api.queue.SubscriptionSettings;
import io.spool.log.CopiedFile;
import io.spool.log.FileSync;
import io.spool.queue.DeadLetterHandler;
import io.spool.queue.SubscriptionRegistry;
import io.spool.queue.internal.store.SnapshotDescriptor;
import io.spool.queue.internal.store.StateSnapshot;
import org.agrona.concurrent.SystemEpochClock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Checks the queue layer's small files without changing anything, for {@code spool verify}: the subscription and
 * exchange catalogs and every subscription partition's snapshot, each with its copy. Stateless, thread-safe.
 */
public final class QueueFilesCheck
{
    private QueueFilesCheck()
    {
    }

    /**
     * @param root what the files are named relative to (the data directory).
     * @return one line per damaged file, naming it and what an open does about it; empty when all are whole.
     */
    public static List<String> check(final Path root, final Path queueDirectory, final Path exchangesFile)
    {
        final List<String> problems = new ArrayList<>();
        add(problems, new SubscriptionCatalog(queueDirectory.resolve(SubscriptionRegistry.CATALOG_FILE),
            FileSync.FORCE).inspect().describe(root,
            "rebuilds the catalog from the entries kept in the subscriptions' state directories"));
        add(problems, new ExchangeCatalog(exchangesFile, FileSync.FORCE).inspect().describe(root,
            "opens with no exchanges or bindings, and sets the files aside"));
        for (final Path subscription : directories(queueDirectory))
        {
            for (final Path partition : directories(subscription))
            {
                final Path snapshot = partition.resolve(SnapshotDescriptor.FILE_NAME);
                add(problems, CopiedFile.inspect(snapshot, bytes -> StateSnapshot.read(snapshot, bytes,
                    SubscriptionSettings.DEFAULT, SystemEpochClock.INSTANCE, DeadLetterHandler.NONE))
                    .describe(root, "quarantines subscription " + subscription.getFileName()));
            }
        }
        return problems;
    }

    private static void add(final List<String> problems, final String problem)
    {
        if (problem != null)
        {
            problems.add(problem);
        }
    }

    private static List<Path> directories(final Path parent)
    {
        if (!Files.isDirectory(parent))
        {
            return List.of();
        }
        try (Stream<Path> children = Files.list(parent))
        {
            return children.filter(Files::isDirectory).sorted().toList();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list " + parent, ex);
        }
    }
}
