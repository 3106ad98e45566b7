package io.spool.queue;

import io.spool.api.EngineClosedException;
import io.spool.api.SpoolException;
import io.spool.api.queue.InvalidSettingsException;
import io.spool.api.queue.OverflowPolicy;
import io.spool.api.queue.RetentionMode;
import io.spool.api.queue.StartPosition;
import io.spool.api.queue.SubscriptionExistsException;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.queue.UnknownSubscriptionException;
import io.spool.api.stream.PublishListener;
import io.spool.log.DurableFiles;
import io.spool.log.OpenReport;
import io.spool.log.PartitionLog;
import io.spool.queue.internal.delivery.DeadLetterOutcomes;
import io.spool.queue.internal.delivery.DeadLetterReplay;
import io.spool.queue.internal.delivery.DeadLetterSink;
import io.spool.queue.internal.delivery.PartitionStateOpener;
import io.spool.queue.internal.delivery.PartitionWorker;
import io.spool.queue.internal.delivery.PassClock;
import io.spool.queue.internal.delivery.SubscriptionAgent;
import io.spool.queue.internal.registry.SubscriptionCatalog;
import io.spool.queue.internal.registry.SubscriptionRepairs;
import io.spool.stream.StreamEngine;
import io.spool.stream.StreamProducer;
import io.spool.stream.Topic;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Every subscription of an engine: creates, reopens and deletes them, keeps their catalog, runs one agent per
 * subscription, and applies work-queue retention (a segment goes once every subscription of its topic has acked
 * past it). Thread-safe.
 * <p>
 * Opening squares each subscription with its topic: state kept for an earlier topic of the same name (another topic
 * id) is dropped and the subscription reads the new topic from its start; state past its log's end is brought back
 * to it ({@link PartitionStateOpener}); a damaged catalog is read from its copy or rebuilt from the entries kept in
 * the state directories. A subscription whose state cannot be rebuilt, or whose topic is gone, is quarantined: not
 * opened, its files left as they are, and the rest opens. All of it goes into the engine's {@link OpenReport}.
 */
public final class SubscriptionRegistry implements AutoCloseable
{
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,249}");
    public static final String CATALOG_FILE = "subscriptions.catalog";

    private final StreamEngine streams;
    private final Path directory;
    private final EpochClock clock;
    private final StateStoreConfig stateConfig;
    private final SubscriptionCatalog catalog;
    private final Map<String, SubscriptionCatalog.Entry> entries;
    private final Map<String, Subscription> open = new ConcurrentHashMap<>();
    private final SubscriptionRepairs repairs;
    private final PartitionStateOpener stateOpener;
    /**
     * Per topic, its subscriptions that may refuse a publish (an overflow limit under a reject policy); replaced
     * whole, under this registry's monitor, when a subscription comes or goes, so a publisher's look allocates
     * nothing and never walks the subscriptions of other topics.
     */
    private volatile Map<String, Subscription[]> refusingByTopic = Map.of();
    private volatile boolean closed;

    public SubscriptionRegistry(final StreamEngine streams, final Path directory, final EpochClock clock,
        final StateStoreConfig stateConfig)
    {
        this.streams = streams;
        this.directory = directory;
        this.clock = clock;
        this.stateConfig = stateConfig.fileSync(streams.logStore().fileSync());
        this.catalog = new SubscriptionCatalog(directory.resolve(CATALOG_FILE), streams.logStore().fileSync());
        final OpenReport report = streams.logStore().openReport();
        this.stateOpener = new PartitionStateOpener(this.stateConfig, report);
        this.repairs = new SubscriptionRepairs(streams.topics(), directory, report, streams.logStore().fileSync());
        this.entries = repairs.loadOrRebuild(catalog);
        boolean changed = entries.values().stream().anyMatch(entry -> entry.issuerDrawn);
        for (final SubscriptionCatalog.Entry stored : List.copyOf(entries.values()))
        {
            final SubscriptionCatalog.Entry entry = repairs.squareWithTopic(stored);
            changed |= entry != stored;
            entries.put(entry.name, entry);
            try
            {
                open.put(entry.name, start(entry, entry == stored || stored.topicId == null ?
                    entry.settings.startPosition() : StartPosition.earliest()));
                if (entry != stored || !SubscriptionCatalog.hasEntry(directory.resolve(entry.name)))
                {
                    catalog.saveEntry(directory.resolve(entry.name), entry);
                }
            }
            catch (final CorruptStateException | io.spool.api.stream.UnknownTopicException damaged)
            {
                repairs.quarantine(entry.name, damaged.getMessage());
            }
        }
        if (changed)
        {
            catalog.save(entries);
        }
        indexRefusing();
    }

    /** Subscriptions this open could not open, by name, and why; see {@link SubscriptionQuarantinedException}. */
    public Map<String, String> quarantined()
    {
        return repairs.quarantined();
    }

    /** The subscriptions that read {@code topic}, quarantined ones included, sorted. */
    public synchronized List<String> readersOf(final String topic)
    {
        final List<String> names = new ArrayList<>();
        entries.values().forEach(entry ->
        {
            if (entry.topic.equals(topic))
            {
                names.add(entry.name);
            }
        });
        names.sort(null);
        return names;
    }

    /**
     * Creates a subscription on {@code topic}, starting where its settings say.
     *
     * @throws InvalidSettingsException for a bad name.
     * @throws SubscriptionExistsException when the name is taken.
     * @throws io.spool.api.stream.UnknownTopicException when the topic (or the dead-letter topic) does not exist.
     */
    public synchronized Subscription create(final String name, final String topic, final SubscriptionSettings settings)
    {
        ensureOpen();
        if (name == null || !NAME.matcher(name).matches() || name.equals(".") || name.equals(".."))
        {
            throw new InvalidSettingsException("subscription name '" + name +
                "' must be 1 to 249 characters of letters, digits, '.', '_' and '-' (and not . or ..)");
        }
        final SubscriptionCatalog.Entry existing = entries.get(name);
        if (existing != null)
        {
            throw new SubscriptionExistsException(name, existing.topic);
        }
        final String quarantine = repairs.quarantined().get(name);
        if (quarantine != null)
        {
            throw new SubscriptionQuarantinedException(name, quarantine);
        }
        final Topic read = streams.topics().topic(topic);
        if (settings.deadLetterTopic() != null)
        {
            streams.topics().topic(settings.deadLetterTopic());
        }
        final SubscriptionCatalog.Entry entry = new SubscriptionCatalog.Entry(name, topic, read.id(), settings);
        // a directory the catalog does not list is left by a create that crashed before the catalog was saved
        DurableFiles.deleteTree(directory.resolve(name));
        final Subscription subscription = start(entry);
        catalog.saveEntry(directory.resolve(name), entry);
        entries.put(name, entry);
        catalog.save(entries);
        open.put(name, subscription);
        indexRefusing();
        return subscription;
    }

    /**
     * @throws UnknownSubscriptionException when there is no such subscription.
     * @throws EngineClosedException when the engine is closed.
     */
    public Subscription get(final String name)
    {
        ensureOpen();
        final Subscription subscription = open.get(name);
        if (subscription == null)
        {
            final String reason = repairs.quarantined().get(name);
            if (reason != null)
            {
                throw new SubscriptionQuarantinedException(name, reason);
            }
            throw new UnknownSubscriptionException(name);
        }
        return subscription;
    }

    /**
     * A subscription of {@code topic} that refuses publishes now (reject policy, backlog at its limit), or null.
     */
    Subscription fullSubscriptionOf(final String topic)
    {
        final Subscription[] refusing = refusingByTopic.get(topic);
        if (refusing != null)
        {
            for (final Subscription subscription : refusing)
            {
                if (subscription.agent().overflow().isFull())
                {
                    return subscription;
                }
            }
        }
        return null;
    }

    private void indexRefusing()
    {
        final Map<String, List<Subscription>> byTopic = new HashMap<>();
        for (final Subscription subscription : open.values())
        {
            final SubscriptionSettings settings = subscription.settings();
            if (settings.hasOverflowLimit() && settings.overflowPolicy() != OverflowPolicy.DROP_HEAD)
            {
                byTopic.computeIfAbsent(subscription.topic(), ignored -> new ArrayList<>()).add(subscription);
            }
        }
        final Map<String, Subscription[]> index = new HashMap<>();
        byTopic.forEach((topic, subscriptions) -> index.put(topic, subscriptions.toArray(new Subscription[0])));
        refusingByTopic = index;
    }

    public List<String> list()
    {
        final List<String> names = new ArrayList<>(open.keySet());
        names.sort(null);
        return names;
    }

    /**
     * Stops the subscription, releases its consumers and deletes its state. The topic's messages stay. A quarantined
     * subscription is deleted with its files.
     */
    public synchronized void delete(final String name)
    {
        ensureOpen();
        if (repairs.release(name))
        {
            if (entries.remove(name) != null)
            {
                catalog.save(entries);
            }
            DurableFiles.deleteTree(directory.resolve(name));
            return;
        }
        final Subscription subscription = get(name);
        open.remove(name);
        indexRefusing();
        entries.remove(name);
        catalog.save(entries);
        subscription.agent().close();
        DurableFiles.deleteTree(directory.resolve(name));
    }

    /**
     * Changes the settings of a live subscription: its lock timeout (for deliveries from now on; those in flight keep
     * their deadlines), its delivery limit (for messages that come back from now on, counting the deliveries they
     * had) and its dead-letter topic (for messages that die from now on). Nothing else about a subscription changes
     * while it lives: create another for that.
     *
     * @throws InvalidSettingsException when another setting differs.
     * @throws UnknownSubscriptionException when there is no such subscription.
     * @throws io.spool.api.stream.UnknownTopicException when the new dead-letter topic does not exist.
     */
    public synchronized void update(final String name, final SubscriptionSettings settings)
    {
        final Subscription subscription = get(name);
        final SubscriptionSettings current = subscription.settings();
        final SubscriptionSettings changeable = current.toBuilder().lockTimeoutMillis(settings.lockTimeoutMillis())
            .deliveryLimit(settings.deliveryLimit()).deadLetterTopic(settings.deadLetterTopic()).build();
        if (!changeable.equals(settings))
        {
            throw new InvalidSettingsException("only the lock timeout, delivery limit and dead-letter topic of " +
                "subscription '" + name + "' can change while it lives; create another subscription to change more " +
                "(has " + current + ", asked for " + settings + ")");
        }
        if (settings.deadLetterTopic() != null)
        {
            streams.topics().topic(settings.deadLetterTopic());
        }
        subscription.update(settings, deadLetterSinks(name, settings, subscription.agent().partitions()));
        final SubscriptionCatalog.Entry entry = entries.get(name).withSettings(settings);
        catalog.saveEntry(directory.resolve(name), entry);
        entries.put(name, entry);
        catalog.save(entries);
    }

    /**
     * Empties a subscription: every message it holds (ready, in flight, delayed) is gone, and it goes on from the end
     * of its topic, with its settings and bindings. Receipts of the deliveries it held are refused from now on, and
     * a call on the subscription's previous {@link Subscription} object fails as on a closed one: look it up again.
     * The topic's records stay, for the other subscriptions and for stream readers.
     *
     * @return the subscription as it goes on.
     * @throws UnknownSubscriptionException when there is no such subscription.
     */
    public synchronized Subscription purge(final String name)
    {
        final Subscription purged = get(name);
        final SubscriptionCatalog.Entry entry = entries.get(name);
        purged.agent().close();
        DurableFiles.deleteTree(directory.resolve(name));
        final Subscription fresh = start(entry, StartPosition.latest());
        open.put(name, fresh);
        indexRefusing();
        return fresh;
    }

    /** A sink per partition, each telling its own worker what became of its letters. */
    private DeadLetterSink[] deadLetterSinks(final String name, final SubscriptionSettings settings,
        final PartitionWorker[] workers)
    {
        final DeadLetterSink[] sinks = new DeadLetterSink[workers.length];
        for (int p = 0; p < sinks.length; p++)
        {
            final int partition = p;
            sinks[p] = settings.deadLetterTopic() == null ? DeadLetterSink.DROP :
                deadLetterPublisher(name, new DeadLetterOutcomes()
                {
                    @Override
                    public void letterStored(final long offset)
                    {
                        workers[partition].letterStored(offset);
                    }

                    @Override
                    public void letterRefused(final long offset, final SpoolException error)
                    {
                        workers[partition].letterRefused(offset, error);
                    }
                });
        }
        return sinks;
    }

    private Subscription start(final SubscriptionCatalog.Entry entry)
    {
        return start(entry, entry.settings.startPosition());
    }

    private Subscription start(final SubscriptionCatalog.Entry entry, final StartPosition startPosition)
    {
        final Topic topic = streams.topics().topic(entry.topic);
        final PartitionWorker[] workers = new PartitionWorker[topic.partitionCount()];
        final DeadLetterSink[] deadLetters = deadLetterSinks(entry.name, entry.settings, workers);
        final PassClock passClock = new PassClock(clock);
        for (int p = 0; p < workers.length; p++)
        {
            final PartitionLog log = topic.partition(p);
            workers[p] = new PartitionWorker(entry.name, entry.issuer, entry.topic, p, log, passClock,
                entry.settings.deadLetterTopic(), deadLetters[p]);
            try
            {
                workers[p].attach(stateOpener.open(entry.name,
                    directory.resolve(entry.name).resolve(Integer.toString(p)), p, entry.settings, log,
                    startOffset(log, startPosition), passClock, workers[p]), entry.settings);
            }
            catch (final RuntimeException ex)
            {
                for (int opened = 0; opened <= p; opened++)
                {
                    workers[opened].close();
                }
                throw ex;
            }
        }
        DeadLetterReplay.replay(entry.name, entry.topic, entry.settings.deadLetterTopic() == null ? null :
            streams.topics().topicOrNull(entry.settings.deadLetterTopic()), workers);
        final SubscriptionAgent agent = new SubscriptionAgent(entry.name, entry.issuer, passClock, workers, entry.settings);
        for (final PartitionWorker worker : workers)
        {
            worker.log().addCommitListener((log, end) -> agent.wake());
            worker.wakeOnLetters(agent::wake);
        }
        agent.start();
        return new Subscription(entry.name, entry.topic, entry.settings, agent, clock);
    }

    private static long startOffset(final PartitionLog log, final StartPosition start)
    {
        switch (start.kind())
        {
            case LATEST:
                return log.endOffset();
            case OFFSET:
                return Math.min(Math.max(start.value(), log.startOffset()), log.endOffset());
            case TIMESTAMP:
                return log.offsetForTimestamp(start.value());
            default:
                return log.startOffset();
        }
    }

    /**
     * Dead letters go out through a producer owned by the subscription partition's agent thread; the correlation of
     * each publish is the dead message's offset, and {@code outcomes} hears whether the topic stored it.
     */
    private DeadLetterSink deadLetterPublisher(final String subscription, final DeadLetterOutcomes outcomes)
    {
        final StreamProducer producer = streams.newProducer(new PublishListener()
        {
            @Override
            public void onPublished(final long correlation, final String topic, final int partition, final long offset)
            {
                outcomes.letterStored(correlation);
            }

            @Override
            public void onFailed(final long correlation, final String topic, final int partition,
                final SpoolException error)
            {
                outcomes.letterRefused(correlation, error);
            }
        });
        final UnsafeBuffer key = new UnsafeBuffer(0, 0);
        final UnsafeBuffer headers = new UnsafeBuffer(0, 0);
        final UnsafeBuffer value = new UnsafeBuffer(0, 0);
        final byte[] none = new byte[0];
        return (topic, k, h, v, offset) ->
        {
            key.wrap(k == null ? none : k);
            headers.wrap(h);
            value.wrap(v == null ? none : v);
            try
            {
                producer.publish(topic, key, 0, k == null ? -1 : k.length, headers, 0, h.length,
                    value, 0, v == null ? -1 : v.length, offset);
            }
            catch (final SpoolException ex)
            {
                outcomes.letterRefused(offset, ex);
            }
        };
    }

    /**
     * Deletes the segments every work-queue subscription of a topic has acked past. A subscription with
     * {@link RetentionMode#NONE} holds nothing back: retention may take records it has not reached.
     *
     * @return the number of segments deleted.
     */
    public int applyWorkQueueRetention()
    {
        final Map<String, long[]> floors = new HashMap<>();
        for (final Subscription subscription : open.values())
        {
            if (subscription.settings().retentionMode() != RetentionMode.WORK_QUEUE)
            {
                continue;
            }
            final PartitionWorker[] workers = subscription.agent().partitions();
            final long[] topicFloors = floors.computeIfAbsent(subscription.topic(), t ->
            {
                final long[] f = new long[workers.length];
                java.util.Arrays.fill(f, Long.MAX_VALUE);
                return f;
            });
            for (int p = 0; p < workers.length && p < topicFloors.length; p++)
            {
                topicFloors[p] = Math.min(topicFloors[p], workers[p].publishedAckFloor());
            }
        }
        int deleted = 0;
        for (final Map.Entry<String, long[]> topic : floors.entrySet())
        {
            final Topic t = streams.topics().topicOrNull(topic.getKey());
            if (t == null)
            {
                continue;
            }
            for (int p = 0; p < topic.getValue().length; p++)
            {
                deleted += t.partition(p).deleteSegmentsBelow(topic.getValue()[p]);
            }
        }
        return deleted;
    }

    /** Closing empties the registry, so without this a closed engine would answer that nothing exists. */
    private void ensureOpen()
    {
        if (closed)
        {
            throw new EngineClosedException("the queue engine");
        }
    }

    @Override
    public synchronized void close()
    {
        closed = true;
        for (final Subscription subscription : open.values())
        {
            subscription.agent().close();
        }
        open.clear();
        indexRefusing();
    }
}
