package io.spool;

import io.spool.api.Admin;
import io.spool.api.Messaging;
import io.spool.api.MetricSample;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.TopicConfig;
import io.spool.log.FileSync;
import io.spool.log.LogStoreConfig;
import io.spool.queue.Redriver;
import io.spool.queue.Router;
import io.spool.queue.StateDurability;
import io.spool.queue.StateStoreConfig;
import io.spool.queue.Subscription;
import io.spool.queue.SubscriptionRegistry;
import io.spool.stream.ConsumerConfig;
import io.spool.stream.StreamConsumer;
import io.spool.stream.StreamEngine;
import io.spool.stream.StreamEngineConfig;
import io.spool.stream.Topic;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.SystemEpochClock;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The embedded engine: one data directory of topics (read as streams) and subscriptions (read as queues) over the
 * same logs. Open it, create topics, publish, then read them by offset ({@link #newConsumer}) or as queues
 * ({@link #createSubscription}); {@link #close()} flushes and releases everything.
 * <pre>{@code
 * try (Spool spool = Spool.open(Path.of("spool-data"))) {
 *     spool.createTopic("orders", TopicConfig.of(4));
 *     spool.newProducer().send("orders", key, value).join();
 *     Subscription billing = spool.createSubscription("billing", "orders", SubscriptionSettings.DEFAULT);
 *     for (Delivery d : billing.receive(10, 5_000)) { handle(d); billing.ack(d.receipt()); }
 * }
 * }</pre>
 * Thread-safe.
 */
public final class Spool implements Messaging
{
    private static final String QUEUE_DIRECTORY = "queue";
    private static final String EXCHANGES_FILE = "exchanges";

    private final StreamEngine streams;
    private final SubscriptionRegistry subscriptions;
    private final Router router;
    private final Redriver redriver;
    private final ScheduledExecutorService maintenance;
    private final EmbeddedAdmin admin = new EmbeddedAdmin(this);

    private Spool(final Builder builder)
    {
        this.streams = StreamEngine.open(builder.dataDir, new StreamEngineConfig(
            LogStoreConfig.builder().clock(builder.clock).pipelines(builder.pipelines)
                .backgroundMaintenance(builder.backgroundMaintenance).fileSync(builder.fileSync).build(),
            builder.syncEachCommit));
        try
        {
            this.subscriptions = new SubscriptionRegistry(streams, builder.dataDir.resolve(QUEUE_DIRECTORY),
                builder.clock, StateStoreConfig.DEFAULT.durability(builder.stateDurability)
                    .compactionThresholdBytes(builder.stateCompactionThresholdBytes)
                    .journalWindowBytes(builder.stateJournalWindowBytes));
            this.router = new Router(builder.dataDir.resolve(QUEUE_DIRECTORY).resolve(EXCHANGES_FILE), subscriptions,
                streams, builder.clock);
            this.redriver = new Redriver(streams, subscriptions);
            streams.dependents(new SubscriptionsOfTopic());
        }
        catch (final RuntimeException ex)
        {
            streams.close();
            throw ex;
        }
        if (builder.backgroundMaintenance)
        {
            maintenance = Executors.newSingleThreadScheduledExecutor(runnable ->
            {
                final Thread thread = new Thread(runnable, "spool-queue-retention");
                thread.setDaemon(true);
                return thread;
            });
            maintenance.scheduleWithFixedDelay(subscriptions::applyWorkQueueRetention, 5, 5, TimeUnit.SECONDS);
        }
        else
        {
            maintenance = null;
        }
    }

    /** Opens (or creates) an engine on {@code dataDir} with the system clock and default settings. */
    public static Spool open(final Path dataDir)
    {
        return builder(dataDir).open();
    }

    public static Builder builder(final Path dataDir)
    {
        return new Builder(dataDir);
    }

    /** The stream half: topics, producers, offset consumers, consumer groups. */
    public StreamEngine streams()
    {
        return streams;
    }

    public Topic createTopic(final String name, final TopicConfig config)
    {
        return streams.createTopic(name, config);
    }

    /** Changes a live topic's retention limits; see {@link StreamEngine#alterTopic}. */
    public Topic alterTopic(final String name, final TopicConfig config)
    {
        return streams.alterTopic(name, config);
    }

    /**
     * A producer for one publishing thread; it refuses records a full subscription rejects (see
     * {@link SpoolProducer}).
     */
    @Override
    public SpoolProducer newProducer()
    {
        return new SpoolProducer(streams.newProducer(), router);
    }

    public StreamConsumer newConsumer(final ConsumerConfig config)
    {
        return streams.newConsumer(config);
    }

    /** A consumer of no group that reads the partitions it is assigned; see {@link ConsumerConfig#standalone()}. */
    @Override
    public StreamConsumer newStreamReader()
    {
        return newConsumer(ConsumerConfig.standalone());
    }

    /** Topics and subscriptions, as the client's {@code SpoolAdmin} offers them. */
    @Override
    public Admin admin()
    {
        return admin;
    }

    /** Creates a subscription that reads {@code topic} as a queue. */
    public Subscription createSubscription(final String name, final String topic, final SubscriptionSettings settings)
    {
        return subscriptions.create(name, topic, settings);
    }

    /**
     * @throws io.spool.api.queue.UnknownSubscriptionException when there is none of that name.
     */
    @Override
    public Subscription subscription(final String name)
    {
        return subscriptions.get(name);
    }

    public List<String> subscriptions()
    {
        return subscriptions.list();
    }

    /** Changes a live subscription's lock timeout, delivery limit or dead-letter topic; see
     * {@link SubscriptionRegistry#update}. */
    public void updateSubscription(final String name, final SubscriptionSettings settings)
    {
        subscriptions.update(name, settings);
    }

    /**
     * Empties a subscription, which goes on from its topic's end with its settings and bindings; see
     * {@link SubscriptionRegistry#purge}. The topic's records stay.
     */
    public Subscription purgeSubscription(final String name)
    {
        return subscriptions.purge(name);
    }

    /** Deletes a subscription, its state and its bindings. */
    public void deleteSubscription(final String name)
    {
        router.unbindAll(name);
        subscriptions.delete(name);
    }

    /**
     * Deletes a topic and its data, refusing while subscriptions read it; see {@link StreamEngine#deleteTopic}.
     *
     * @throws io.spool.stream.TopicInUseException when a subscription reads it.
     */
    public void deleteTopic(final String name)
    {
        streams.deleteTopic(name);
    }

    /**
     * Deletes a topic and its data; with {@code force}, its subscriptions (their state and bindings) go first. A topic
     * created again under the name is another topic, which inherits no subscription state.
     *
     * @throws io.spool.stream.TopicInUseException when a subscription reads it and {@code force} is false.
     */
    public void deleteTopic(final String name, final boolean force)
    {
        streams.deleteTopic(name, force);
    }

    /**
     * What this open found damaged or out of step and what it did: logs cut or with holes, small files restored from
     * their copies or rebuilt, subscription state and group offsets brought back to a log's new end, state of a
     * deleted topic dropped, and what was quarantined. Each finding was also logged as a warning.
     */
    public io.spool.log.OpenReport openReport()
    {
        return streams.logStore().openReport();
    }

    /**
     * Checks the small files of a data directory (topic metadata, subscription and exchange catalogs, subscription
     * snapshots, each with its copy) without opening the engine or changing anything.
     *
     * @return one line per damaged file, naming it and what an open would do about it; empty when all are whole.
     */
    public static List<String> checkFiles(final Path dataDir)
    {
        final List<String> problems = new java.util.ArrayList<>(io.spool.stream.StreamFilesCheck.check(dataDir));
        problems.addAll(io.spool.queue.internal.registry.QueueFilesCheck.check(dataDir, dataDir.resolve(QUEUE_DIRECTORY),
            dataDir.resolve(QUEUE_DIRECTORY).resolve(EXCHANGES_FILE)));
        return problems;
    }

    /** Subscriptions read a topic too: a topic delete asks about them, and a forced one deletes them first. */
    private final class SubscriptionsOfTopic implements io.spool.stream.TopicDependents
    {
        @Override
        public List<String> dependentsOf(final String topic)
        {
            return subscriptions.readersOf(topic).stream().map(name -> "subscription '" + name + "'").toList();
        }

        @Override
        public void deleteDependents(final String topic)
        {
            subscriptions.readersOf(topic).forEach(Spool.this::deleteSubscription);
        }
    }

    /** Moves dead-lettered messages back to the subscriptions they died in. */
    public Redriver redriver()
    {
        return redriver;
    }

    /**
     * Publishing with the subscriptions' overflow limits in force ({@link Router#send}), exchanges and bindings (kept
     * across restarts), and publishing through them.
     */
    public Router router()
    {
        return router;
    }

    /**
     * Runs maintenance now: retention by age and size for every log, expiry of silent consumer-group members,
     * then retention by consumption for topics with work-queue subscriptions. The background thread does the same
     * unless {@link Builder#backgroundMaintenance(boolean)} turned it off.
     *
     * @return the number of segments deleted and members expired.
     */
    /**
     * The engine's figures now: per topic partition, subscription and consumer group, the log store's confirms and
     * fsyncs, and the JVM's basics (see {@link MetricSample}). Takes each subscription's metrics from its agent, so
     * it costs a round trip per subscription; for a scrape every few seconds, not for a hot loop.
     */
    public List<MetricSample> metrics()
    {
        return EngineMetrics.collect(this);
    }

    public int runMaintenance()
    {
        return streams.runMaintenance() + subscriptions.applyWorkQueueRetention();
    }

    @Override
    public void close()
    {
        if (maintenance != null)
        {
            maintenance.shutdownNow();
        }
        subscriptions.close();
        streams.close();
    }

    /**
     * Settings for {@link Spool#open}. Not thread-safe.
     */
    public static final class Builder
    {
        private final Path dataDir;
        private EpochClock clock = SystemEpochClock.INSTANCE;
        private int pipelines = 1;
        private boolean backgroundMaintenance = true;
        private boolean syncEachCommit;
        private StateDurability stateDurability = StateDurability.NONE;
        private long stateCompactionThresholdBytes = StateStoreConfig.DEFAULT_COMPACTION_THRESHOLD_BYTES;
        private int stateJournalWindowBytes = StateStoreConfig.DEFAULT_JOURNAL_WINDOW_BYTES;
        private FileSync fileSync = FileSync.FORCE;

        private Builder(final Path dataDir)
        {
            this.dataDir = dataDir;
        }

        /** The clock every timeout, delay, TTL and timestamp reads; tests pass a {@code CachedEpochClock}. */
        public Builder clock(final EpochClock clock)
        {
            this.clock = clock;
            return this;
        }

        public Builder pipelines(final int pipelines)
        {
            this.pipelines = pipelines;
            return this;
        }

        /** False leaves maintenance to {@link Spool#runMaintenance()} calls, as tests and labs do. */
        public Builder backgroundMaintenance(final boolean backgroundMaintenance)
        {
            this.backgroundMaintenance = backgroundMaintenance;
            return this;
        }

        /** Force every consumer-group offset commit to disk before it returns. */
        public Builder syncEachCommit(final boolean syncEachCommit)
        {
            this.syncEachCommit = syncEachCommit;
            return this;
        }

        /** When queue state changes (acks, delivery counts) are forced to disk. */
        public Builder stateDurability(final StateDurability stateDurability)
        {
            this.stateDurability = stateDurability;
            return this;
        }

        /**
         * The journal size after which a subscription partition's state is compacted into a snapshot.
         *
         * @throws io.spool.api.queue.InvalidSettingsException if it is not between 1 KiB and 1 GiB.
         */
        public Builder stateCompactionThresholdBytes(final long bytes)
        {
            StateStoreConfig.DEFAULT.compactionThresholdBytes(bytes); // refuses a bad threshold here, not at open
            this.stateCompactionThresholdBytes = bytes;
            return this;
        }

        /**
         * The window each subscription partition's state journal is written through, and by which its file grows
         * ahead of what it holds (see {@link StateStoreConfig#journalWindowBytes}).
         *
         * @throws io.spool.api.queue.InvalidSettingsException if it is not a multiple of 64 KiB between 64 KiB and 1 GiB.
         */
        public Builder stateJournalWindowBytes(final int bytes)
        {
            StateStoreConfig.DEFAULT.journalWindowBytes(bytes); // refuses a bad window here, not at open
            this.stateJournalWindowBytes = bytes;
            return this;
        }

        /**
         * What every force of the engine goes through: the operating system's ({@link FileSync#FORCE}, the default)
         * unless a test puts a layer there that simulates power loss.
         */
        public Builder fileSync(final FileSync fileSync)
        {
            this.fileSync = java.util.Objects.requireNonNull(fileSync, "fileSync");
            return this;
        }

        public Spool open()
        {
            return new Spool(this);
        }
    }
}
