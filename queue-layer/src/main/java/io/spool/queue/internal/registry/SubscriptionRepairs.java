package io.spool.queue.internal.registry;

import io.spool.log.CopiedFile;
import io.spool.log.DurableFiles;
import io.spool.log.FileSync;
import io.spool.log.OpenReport;
import io.spool.queue.CorruptStateException;
import io.spool.queue.StateStorageException;
import io.spool.queue.SubscriptionRegistry;
import io.spool.stream.Topic;
import io.spool.stream.TopicRegistry;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What opening the subscriptions repairs before it starts them, and what it cannot: reads a damaged catalog from
 * its copy or rebuilds it from the entries kept in the state directories, squares each entry with its topic as it
 * stands now (another topic id means the state was kept for an earlier topic of the same name), and keeps the
 * subscriptions that could not be opened (quarantined) until they are deleted. Every finding goes into the
 * engine's {@link OpenReport}. Thread-safe: the quarantine is a concurrent map; the rest runs while the registry
 * opens.
 */
public final class SubscriptionRepairs
{
    /** Beside the queue directory: subscription state directories a rebuilt catalog could not name. */
    static final String QUARANTINE_DIRECTORY = "queue-quarantine";

    private final TopicRegistry topics;
    private final Path directory;
    private final OpenReport report;
    private final FileSync sync;
    /** Subscriptions not opened, by name, and why. */
    private final Map<String, String> quarantined = new ConcurrentHashMap<>();

    public SubscriptionRepairs(final TopicRegistry topics, final Path directory, final OpenReport report,
        final FileSync sync)
    {
        this.sync = sync;
        this.topics = topics;
        this.directory = directory;
        this.report = report;
    }

    /** The catalog's entries, from its copy when it is damaged, rebuilt when the copy is damaged too. */
    public Map<String, SubscriptionCatalog.Entry> loadOrRebuild(final SubscriptionCatalog catalog)
    {
        final String subject = "subscription catalog " + SubscriptionRegistry.CATALOG_FILE;
        final CopiedFile.Loaded<Map<String, SubscriptionCatalog.Entry>> loaded;
        try
        {
            loaded = catalog.load();
        }
        catch (final CorruptStateException damaged)
        {
            final Path aside = catalog.setAside();
            final Map<String, String> unreadable = new TreeMap<>();
            final Map<String, SubscriptionCatalog.Entry> rebuilt = SubscriptionCatalog.rebuild(directory, unreadable);
            catalog.save(rebuilt);
            report.add(OpenReport.Action.REBUILT, subject, damaged.getMessage() + ", and so is its copy; rebuilt " +
                "it with " + rebuilt.keySet() + " from the entries kept in their " +
                "state directories; the damaged files are kept as " + aside.getFileName());
            unreadable.forEach((name, reason) -> quarantine(name, reason + "; its state directory was moved to " +
                setAside(name) + " (a subscription of that name can be created afresh)"));
            return rebuilt;
        }
        if (loaded.fromCopy())
        {
            report.add(OpenReport.Action.RESTORED_FROM_COPY, subject, loaded.damage() +
                "; read its copy, nothing lost");
        }
        return loaded.value();
    }

    /**
     * The entry as its topic stands now: one stored before topics had ids takes its topic's id; one kept for an
     * earlier topic of the same name loses its state, which it kept for a log that is gone.
     *
     * @return {@code entry} itself when nothing changed.
     */
    public SubscriptionCatalog.Entry squareWithTopic(final SubscriptionCatalog.Entry entry)
    {
        final Topic topic = topics.topicOrNull(entry.topic);
        if (topic == null || topic.id().equals(entry.topicId))
        {
            return entry;
        }
        if (entry.topicId != null)
        {
            DurableFiles.deleteTree(directory.resolve(entry.name));
            report.add(OpenReport.Action.RESET_FOR_NEW_TOPIC, "subscription " + entry.name, "its state was kept " +
                "for an earlier topic \"" + entry.topic + "\" (id " + entry.topicId + "), which is gone; the topic " +
                "of that name now is another one (id " + topic.id() + "), so its state was dropped and it reads " +
                "the new topic from its start");
        }
        return entry.withTopicId(topic.id());
    }

    /**
     * Moves the state directory of a subscription the rebuilt catalog does not know out of the queue directory:
     * left there, nothing would list it after this open, and a subscription created under its name would take it.
     */
    private Path setAside(final String name)
    {
        final Path aside = directory.resolveSibling(QUARANTINE_DIRECTORY).resolve(name);
        try
        {
            DurableFiles.createDirectories(sync, aside.getParent());
            Files.move(directory.resolve(name), aside, StandardCopyOption.REPLACE_EXISTING);
            DurableFiles.syncDirectory(sync, directory);
            return directory.getParent().relativize(aside);
        }
        catch (final IOException ex)
        {
            throw new StateStorageException("moving the unreadable subscription directory " +
                directory.resolve(name) + " aside failed", ex);
        }
    }

    /** Keeps a subscription that could not be opened out of service, and reports it. */
    public void quarantine(final String name, final String reason)
    {
        quarantined.put(name, reason);
        report.add(OpenReport.Action.QUARANTINED, "subscription " + name, reason + "; not opened, its files are " +
            "left as they are, and everything else serves (delete the subscription to clear it)");
    }

    /** Subscriptions this open could not open, by name, and why. */
    public Map<String, String> quarantined()
    {
        return Map.copyOf(quarantined);
    }

    /** Forgets a quarantined subscription, which is being deleted; false when it was not quarantined. */
    public boolean release(final String name)
    {
        return quarantined.remove(name) != null;
    }
}
