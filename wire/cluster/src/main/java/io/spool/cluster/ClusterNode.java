package io.spool.cluster;

import io.spool.Spool;
import io.spool.api.MetricSample;
import io.spool.api.stream.TopicPartition;
import io.spool.stream.StreamEngine;
import io.spool.stream.Topic;
import io.spool.wire.server.SpoolServer;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.SnapshotManagementRequest;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachine;
import org.apache.ratis.util.ExitUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One node of a static cluster: its Spool engine, a Ratis server carrying the metadata group and the groups of the
 * partitions placed on it, and a native {@link SpoolServer} over the engine that clients read from (any node serves
 * the same records at the same offsets). Publishes to replicated topics go through a {@link ClusterClient}, which
 * finds each partition's leader, or through any node's native server as {@code PUBLISH_SEQUENCED} batches (a
 * {@code FailoverProducer}), which the node hands on through a client of its own ({@link ForwardedPublishes}).
 * With a Kafka port in its server settings the node also serves Kafka's protocol as one broker of the cluster
 * ({@link KafkaReplication}), and announces the listener through the metadata group. Thread-safe.
 */
public final class ClusterNode implements AutoCloseable
{
    private static final Logger LOGGER = LoggerFactory.getLogger(ClusterNode.class);
    /** How long a node waits for a metadata leader before it says what may be wrong, and again after as long. */
    private static final Duration LEADERLESS_WARNING = Duration.ofSeconds(10);
    private static final Duration SNAPSHOT_TIMEOUT = Duration.ofSeconds(30);

    private final ClusterNodeConfig config;
    private final ClusterGroups groups;
    private final Spool engine;
    /** Announces the Kafka listener, watches for a metadata leader and closes the groups a failed write left. */
    private final ScheduledExecutorService joiner;
    private final ClientId adminClientId = ClientId.randomId();
    private final AtomicLong adminCallId = new AtomicLong();
    private final RaftServer raft;
    /**
     * The consensus server once started: a metadata snapshot loaded while it starts joins groups before the
     * constructor has {@link #raft}, so joins wait for this.
     */
    private final CompletableFuture<RaftServer> consensus = new CompletableFuture<>();
    /** Where the node's native server hands on sequenced publishes, through a cluster client of its own. */
    private final ForwardedPublishes forwarded;
    /** The Kafka listeners the nodes announced, as the metadata group applied them. */
    private final KafkaBrokers kafkaBrokers = new KafkaBrokers();
    /** What the node's Kafka listener asks of the cluster; null when the node serves no Kafka listener. */
    private final KafkaReplication kafka;
    private final SpoolServer server;
    private final ScheduledFuture<?> leaderWatch;
    /** Every partition state machine this node made, told first when the node closes. */
    private final Queue<PartitionStateMachine> partitionMachines = new ConcurrentLinkedQueue<>();
    /** Takes a partition's group off this node when its disk refuses a write. */
    private final FailedWrites failedWrites;
    /** Publishes the dead letters of the partitions this node leads; made before any group loads. */
    private final DeadLetterSender deadLetterSender;
    private final ClusterMetrics metrics;
    private final ClusterReadiness readiness;
    /** Joins and leaves the partitions' groups as topics are created and deleted, on a thread of its own. */
    private final GroupMemberships memberships;
    private final ExecutorService membershipThread =
        Executors.newSingleThreadExecutor(runnable -> daemon(runnable, "spool-cluster-groups"));
    /** Completes once the node has started: a failed write stops only a node that did. */
    private final CompletableFuture<Void> startedUp = new CompletableFuture<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Completes once the first close is done: a later one, as from a stopped node's command, waits for it. */
    private final CompletableFuture<Void> closedDown = new CompletableFuture<>();
    /** Why a failed write stopped the node, for its readiness; null while it was not stopped so. */
    private volatile String stoppedBecause;

    static
    {
        // Ratis ends the JVM (System.exit) when its gRPC server cannot start, as when the consensus port is taken;
        // a node must fail its start instead, and leave the application it is embedded in running.
        ExitUtils.disableSystemExit();
    }

    private ClusterNode(final ClusterNodeConfig config)
    {
        this.config = config;
        this.groups = new ClusterGroups(config.members());
        this.engine = Spool.open(config.dataDir().resolve("log"));
        this.joiner = Executors.newSingleThreadScheduledExecutor(runnable -> daemon(runnable, "spool-cluster-join"));
        this.failedWrites = new FailedWrites(config.nodeId(), joiner, this::stopAfterFailedWrite);
        this.deadLetterSender = new DeadLetterSender(config.members());
        this.memberships = new GroupMemberships(config.nodeId(), groups, config.dataDir().resolve("raft"), consensus,
            membershipThread);
        final ClusterMembers.Member self = config.members().member(config.nodeId());
        RaftServer started = null;
        ForwardedPublishes handingOn = null;
        KafkaReplication kafkaSide = null;
        SpoolServer serving = null;
        try
        {
            final Path raftDir = config.dataDir().resolve("raft");
            final boolean restarting = Files.isDirectory(
                raftDir.resolve(groups.metadata().getGroupId().getUuid().toString()));
            started = RaftServer.newBuilder()
                .setServerId(ClusterGroups.peerId(config.nodeId()))
                .setGroup(groups.metadata())
                // the metadata group's storage is made on the first start and recovered on every later one
                .setOption(restarting ? RaftStorage.StartupOption.RECOVER : RaftStorage.StartupOption.FORMAT)
                .setStateMachineRegistry(this::stateMachine)
                .setProperties(RaftSettings.server(raftDir.toFile(), self.host(),
                    config.consensusBindPort(), config.electionTimeout(), config.snapshotEveryEntries()))
                .build();
            started.start();
            consensus.complete(started);
            handingOn = new ForwardedPublishes(config.members());
            kafkaSide = config.server().kafkaPort() < 0 ? null :
                new KafkaReplication(config.nodeId(), config.members(), started, kafkaBrokers);
            serving = SpoolServer.start(engine, config.server(), handingOn, kafkaSide,
                new PlacedPartitions(config.nodeId(), groups, started));
        }
        catch (final IOException | RuntimeException ex)
        {
            consensus.completeExceptionally(ex);
            if (handingOn != null)
            {
                handingOn.close();
            }
            if (kafkaSide != null)
            {
                kafkaSide.close();
            }
            closeQuietly(started);
            deadLetterSender.close();
            membershipThread.shutdownNow();
            engine.close();
            joiner.shutdownNow();
            if (ex instanceof ExitUtils.ExitException)
            {
                throw new IllegalStateException("node " + config.nodeId() + " could not listen for consensus on " +
                    self.host() + ":" + config.consensusBindPort() + " (" + Causes.rootMessage(ex) + "): is another " +
                    "process using the port? Stop it, or give this node another port in the member list of every " +
                    "node", ex);
            }
            throw ex instanceof IOException io ? new UncheckedIOException("node " + config.nodeId() +
                " could not start its consensus server on " + self.address() + ": " + ex.getMessage(), io) :
                (RuntimeException)ex;
        }
        this.raft = started;
        this.forwarded = handingOn;
        this.kafka = kafkaSide;
        this.server = serving;
        this.metrics = new ClusterMetrics(groups, raft, engine.streams(), failedWrites);
        this.readiness = new ClusterReadiness(config.members(), raft, memberships::joinsPending, this::metadataLeader);
        if (kafka != null)
        {
            joiner.execute(this::announceKafkaListener);
        }
        final long seconds = LEADERLESS_WARNING.toSeconds();
        leaderWatch = joiner.scheduleWithFixedDelay(this::warnWhileLeaderless, seconds, seconds, TimeUnit.SECONDS);
        LOGGER.info("cluster node {} of {}: consensus on {}, clients on {}:{}", config.nodeId(), config.members(),
            self.address(), server.host(), server.port());
        startedUp.complete(null);
    }

    /**
     * Closes the node after a write the metadata group could not make ({@link FailedWrites#stopNode}), on a thread
     * of its own: the one that failed is one that closing waits for. A node that fails so while it starts fails to
     * start.
     */
    private void stopAfterFailedWrite(final String why)
    {
        stoppedBecause = why;
        startedUp.thenRunAsync(this::close, runnable -> daemon(runnable, "spool-cluster-stop").start());
    }

    /**
     * Starts the node; it serves as soon as a majority of the cluster has started.
     *
     * @throws UncheckedIOException when the consensus port cannot be bound or the Raft storage not read.
     */
    public static ClusterNode start(final ClusterNodeConfig config)
    {
        return new ClusterNode(config);
    }

    private StateMachine stateMachine(final RaftGroupId groupId)
    {
        if (groupId.equals(groups.metadata().getGroupId()))
        {
            return new MetadataStateMachine(config.nodeId(), engine.streams(), memberships, kafkaBrokers,
                failedWrites, config.dataDir().resolve("log"), config.dataDir().resolve("raft"));
        }
        final StreamEngine streams = engine.streams();
        for (final String name : streams.listTopics())
        {
            final Topic topic = streams.topics().topic(name);
            for (int partition = 0; partition < topic.partitionCount(); partition++)
            {
                if (groups.isGroupOf(groupId, new TopicPartition(name, partition)))
                {
                    final PartitionStateMachine machine = new PartitionStateMachine(name, partition,
                        topic.partition(partition), streams.newProducer(), streams.groups(), failedWrites,
                        config.dataDir().resolve("log"), deadLetterSender);
                    partitionMachines.add(machine);
                    return machine;
                }
            }
        }
        throw new IllegalStateException("node " + config.nodeId() + " holds Raft group " + groupId + " of no topic " +
            "in its engine: its raft/ and log/ directories come from different nodes or runs");
    }

    /** The id of the node leading the cluster's metadata group as this node knows it, or -1 while it knows none. */
    public int metadataLeader()
    {
        return ClusterGroups.leaderOf(raft, groups.metadata().getGroupId());
    }

    /**
     * Announces where this node's Kafka listener is, through the metadata group, until a majority has taken it;
     * until then the other nodes' Metadata answers do not list this node.
     */
    private void announceKafkaListener()
    {
        try
        {
            kafka.announce(server.kafkaListener().host(), server.kafkaListener().port());
        }
        catch (final RuntimeException notYet)
        {
            LOGGER.debug("node {} could not announce its Kafka listener yet", config.nodeId(), notYet);
            if (!joiner.isShutdown())
            {
                joiner.schedule(this::announceKafkaListener, 200, TimeUnit.MILLISECONDS);
            }
        }
    }

    private void warnWhileLeaderless()
    {
        if (metadataLeader() > 0)
        {
            leaderWatch.cancel(false);
            return;
        }
        LOGGER.warn("node {} has found no leader of the cluster yet: is a majority of {} running, each node started " +
            "with this same --cluster list? A node given another list derives other groups and cannot join the " +
            "others", config.nodeId(), config.members());
    }

    /**
     * Takes a snapshot of the partition's group on this node now, which trims its Raft log as an automatic one does.
     *
     * @return the index of the last entry the snapshot holds.
     * @throws IOException when the group is not on this node or refuses the snapshot.
     */
    long takeSnapshot(final TopicPartition partition) throws IOException
    {
        return takeSnapshot(groupOf(partition));
    }

    long takeMetadataSnapshot() throws IOException
    {
        return takeSnapshot(groups.metadata().getGroupId());
    }

    private long takeSnapshot(final RaftGroupId groupId) throws IOException
    {
        final RaftClientReply reply = raft.snapshotManagement(SnapshotManagementRequest.newCreate(adminClientId,
            raft.getId(), groupId, adminCallId.incrementAndGet(), SNAPSHOT_TIMEOUT.toMillis()));
        if (!reply.isSuccess())
        {
            throw new IOException("node " + config.nodeId() + " took no snapshot of group " + groupId,
                reply.getException());
        }
        return reply.getLogIndex();
    }

    /** The first entry the partition group's Raft log still holds on this node: past the trimmed ones. */
    long raftLogStart(final TopicPartition partition) throws IOException
    {
        return raft.getDivision(groupOf(partition)).getRaftLog().getStartIndex();
    }

    /** The offset the partition's next committed record takes, as this node's state machine has applied them. */
    long replicatedEnd(final TopicPartition partition) throws IOException
    {
        return partitionMachine(partition).replicatedEnd();
    }

    /** The partition's subscriptions on this node, for comparing nodes. */
    ReplicatedSubscriptions subscriptions(final TopicPartition partition) throws IOException
    {
        return partitionMachine(partition).subscriptions();
    }

    /** The dead letters this node's state of the partition still owes to dead-letter topics. */
    List<DeadLetterCopies.OwedCopy> owedDeadLetterCopies(final TopicPartition partition) throws IOException
    {
        return partitionMachine(partition).owedDeadLetterCopies();
    }

    /** For tests: stops this node's dead-letter copies at {@code where}, or lets them go on. */
    void holdDeadLetterCopies(final DeadLetterSender.Hold where)
    {
        deadLetterSender.hold(where);
    }

    private PartitionStateMachine partitionMachine(final TopicPartition partition) throws IOException
    {
        return (PartitionStateMachine)raft.getDivision(groupOf(partition)).getStateMachine();
    }

    /** The group of the partition this node is a member of. */
    private RaftGroupId groupOf(final TopicPartition partition) throws IOException
    {
        final RaftGroupId group = groups.groupOf(raft.getGroupIds(), partition);
        if (group == null)
        {
            throw new IOException("node " + config.nodeId() + " holds no group of " + partition);
        }
        return group;
    }

    /** The node's cluster figures ({@link ClusterMetrics}), beside those of {@link SpoolServer#metrics()}. */
    public List<MetricSample> clusterMetrics()
    {
        return metrics.samples();
    }

    /**
     * Why the node stopped itself, after a write the metadata group could not make (the line it logged), or empty
     * while it was not stopped so: running, or closed by its application.
     */
    public Optional<String> stoppedBecause()
    {
        return Optional.ofNullable(stoppedBecause);
    }

    /** Whether the node serves yet, and if not what it waits for ({@link ClusterReadiness}) or why it stopped. */
    public ClusterReadiness.State readiness()
    {
        final String stopped = stoppedBecause;
        if (stopped != null)
        {
            return new ClusterReadiness.State(false, stopped);
        }
        return closed.get() ? new ClusterReadiness.State(false, "closed") : readiness.state();
    }

    public int nodeId()
    {
        return config.nodeId();
    }

    public Spool engine()
    {
        return engine;
    }

    /** The native server clients read from. */
    public SpoolServer server()
    {
        return server;
    }

    @Override
    public void close()
    {
        if (!closed.compareAndSet(false, true))
        {
            closedDown.join();
            return;
        }
        try
        {
            closeAll();
        }
        finally
        {
            closedDown.complete(null);
        }
    }

    private void closeAll()
    {
        failedWrites.nodeClosing();
        finish(joiner);
        finish(membershipThread);
        server.close();
        deadLetterSender.close();
        forwarded.close();
        if (kafka != null)
        {
            kafka.close();
        }
        partitionMachines.forEach(PartitionStateMachine::closing);
        closeQuietly(raft);
        engine.close();
    }

    private static Thread daemon(final Runnable runnable, final String name)
    {
        final Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }

    /** Lets the executor finish what it was given, for a while, and take nothing more. */
    private static void finish(final ExecutorService executor)
    {
        executor.shutdown();
        try
        {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(final RaftServer raft)
    {
        if (raft == null)
        {
            return;
        }
        try
        {
            raft.close();
        }
        catch (final IOException ex)
        {
            LOGGER.warn("closing the consensus server", ex);
        }
    }
}
