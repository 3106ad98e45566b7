package io.spool.cluster;

import io.spool.wire.server.ServerConfig;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How to run one node of a cluster: its id in the member list, the list, the data directory (the node's Spool log
 * under {@code log/}, its Raft groups under {@code raft/}), the native server clients read from, and the election
 * timeout, and how often each Raft group snapshots its state and trims its Raft log. The native server refuses publishes and topic changes, which go through the cluster
 * ({@link ClusterClient}): a record written to one node's log alone would make it differ from the others.
 * Immutable, thread-safe.
 */
public final class ClusterNodeConfig
{
    public static final Duration DEFAULT_ELECTION_TIMEOUT = Duration.ofSeconds(1);
    /** Entries a group applies between two snapshots, after each of which its Raft log is trimmed. */
    public static final int DEFAULT_SNAPSHOT_EVERY_ENTRIES = 1024;
    static final String WRITES_GO_THROUGH_THE_CLUSTER = "this server is a cluster node: publish to its topics " +
        "through the cluster, with a FailoverProducer (whose batches the node hands to the partition's group) or a " +
        "ClusterClient, and create topics with ClusterClient.createTopic (or Kafka Admin.createTopics on a node's " +
        "Kafka listener), so that every node's log stays the same";

    private final int nodeId;
    private final ClusterMembers members;
    private final Path dataDir;
    private final ServerConfig server;
    private final Duration electionTimeout;
    private final int consensusBindPort;
    private final int snapshotEveryEntries;

    /**
     * @param server          the native server's settings (host, port, token, TLS, limits).
     * @param electionTimeout the least time a follower waits for its leader before standing for election (it waits
     *                        up to twice as long); a failover takes about this long and more.
     * @throws IllegalArgumentException when the id is not in the list or the timeout is below 50 ms.
     */
    public ClusterNodeConfig(final int nodeId, final ClusterMembers members, final Path dataDir,
        final ServerConfig.Builder server, final Duration electionTimeout)
    {
        this(nodeId, members, dataDir, server.writesRefused(WRITES_GO_THROUGH_THE_CLUSTER).build(), electionTimeout,
            members.member(nodeId).port(), DEFAULT_SNAPSHOT_EVERY_ENTRIES);
    }

    private ClusterNodeConfig(final int nodeId, final ClusterMembers members, final Path dataDir,
        final ServerConfig server, final Duration electionTimeout, final int consensusBindPort,
        final int snapshotEveryEntries)
    {
        members.member(nodeId);
        if (electionTimeout.toMillis() < 50)
        {
            throw new IllegalArgumentException("election timeout must be at least 50 ms, was " + electionTimeout);
        }
        this.nodeId = nodeId;
        this.members = members;
        this.dataDir = dataDir;
        this.server = server;
        this.electionTimeout = electionTimeout;
        this.consensusBindPort = consensusBindPort;
        this.snapshotEveryEntries = snapshotEveryEntries;
    }

    /**
     * The same node listening for its peers on {@code port} of its host, while they reach it at the list's address:
     * for a node behind a forwarder (a NAT rule, a proxy) that maps the list's port to another.
     */
    public ClusterNodeConfig withConsensusBindPort(final int port)
    {
        if (port < 1 || port > 65_535)
        {
            throw new IllegalArgumentException("a consensus port is 1 to 65535, was " + port);
        }
        return new ClusterNodeConfig(nodeId, members, dataDir, server, electionTimeout, port, snapshotEveryEntries);
    }

    /**
     * The same node with each Raft group taking a snapshot of its state every {@code entries} applied entries (and
     * when the node stops), after which its Raft log is trimmed up to it: fewer entries mean a smaller {@code raft/}
     * and a shorter replay on restart, at the price of writing the groups' state more often.
     *
     * @throws IllegalArgumentException when {@code entries} is below 1.
     */
    public ClusterNodeConfig withSnapshotEveryEntries(final int entries)
    {
        if (entries < 1)
        {
            throw new IllegalArgumentException("a Raft group snapshots every 1 or more entries, was " + entries +
                "; the default is " + DEFAULT_SNAPSHOT_EVERY_ENTRIES);
        }
        return new ClusterNodeConfig(nodeId, members, dataDir, server, electionTimeout, consensusBindPort, entries);
    }

    public ClusterNodeConfig(final int nodeId, final ClusterMembers members, final Path dataDir,
        final ServerConfig.Builder server)
    {
        this(nodeId, members, dataDir, server, DEFAULT_ELECTION_TIMEOUT);
    }

    public int nodeId()
    {
        return nodeId;
    }

    public ClusterMembers members()
    {
        return members;
    }

    public Path dataDir()
    {
        return dataDir;
    }

    public ServerConfig server()
    {
        return server;
    }

    public Duration electionTimeout()
    {
        return electionTimeout;
    }

    /** Entries each Raft group applies between two snapshots. */
    public int snapshotEveryEntries()
    {
        return snapshotEveryEntries;
    }

    /** The port this node listens on for its peers: the list's unless {@link #withConsensusBindPort} moved it. */
    public int consensusBindPort()
    {
        return consensusBindPort;
    }
}
