package io.spool.cluster;

import io.spool.wire.server.ServerConfig;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * A cluster whose nodes run in this JVM, on free loopback ports, each under {@code node-<id>} of one directory
 * ({@link TestNodes#config}): nodes are started, stopped and restarted on their directories by id, a follower of a
 * partition is found by its leader, and closing the cluster closes every node still running. Nodes in child JVMs
 * are {@link ChildNodes}' job.
 */
final class InJvmCluster implements AutoCloseable
{
    private final ClusterMembers members;
    private final Path dir;
    private final UnaryOperator<ServerConfig.Builder> server;
    private final UnaryOperator<ClusterNodeConfig> settings;
    private final Map<Integer, ClusterNode> running = new TreeMap<>();

    /** A cluster of {@code size} members under {@code dir}, none started yet. */
    InJvmCluster(final int size, final Path dir)
    {
        this(size, dir, UnaryOperator.identity());
    }

    /** @param settings what each node's configuration changes from {@link TestNodes#config}'s, given it. */
    InJvmCluster(final int size, final Path dir, final UnaryOperator<ClusterNodeConfig> settings)
    {
        this(size, dir, UnaryOperator.identity(), settings);
    }

    private InJvmCluster(final int size, final Path dir, final UnaryOperator<ServerConfig.Builder> server,
        final UnaryOperator<ClusterNodeConfig> settings)
    {
        this.members = LoopbackPorts.members(size);
        this.dir = dir;
        this.server = server;
        this.settings = settings;
    }

    /** @param server what each node's native server is given beside a free port (a Kafka listener, say). */
    static InJvmCluster withServers(final int size, final Path dir, final UnaryOperator<ServerConfig.Builder> server)
    {
        return new InJvmCluster(size, dir, server, UnaryOperator.identity());
    }

    ClusterMembers members()
    {
        return members;
    }

    /** Starts every member not running, in id order. */
    InJvmCluster startAll()
    {
        for (final ClusterMembers.Member member : members.members())
        {
            if (!running.containsKey(member.id()))
            {
                start(member.id());
            }
        }
        return this;
    }

    /**
     * Starts the member on its directory: a first start, or a restart on what it left there.
     *
     * @throws IllegalStateException when the member runs already.
     */
    ClusterNode start(final int nodeId)
    {
        if (running.containsKey(nodeId))
        {
            throw new IllegalStateException("node " + nodeId + " runs already; stop it before starting it again");
        }
        final ClusterNode node = ClusterNode.start(settings.apply(TestNodes.config(members, nodeId, dir, server)));
        running.put(nodeId, node);
        return node;
    }

    void stop(final int nodeId)
    {
        final ClusterNode node = running.remove(nodeId);
        if (node != null)
        {
            node.close();
        }
    }

    void stopAll()
    {
        List.copyOf(running.keySet()).forEach(this::stop);
    }

    /** @throws IllegalStateException when the member does not run. */
    ClusterNode node(final int nodeId)
    {
        final ClusterNode node = running.get(nodeId);
        if (node == null)
        {
            throw new IllegalStateException("node " + nodeId + " does not run; running are " + running.keySet());
        }
        return node;
    }

    /** The running nodes, by id. */
    List<ClusterNode> nodes()
    {
        return List.copyOf(running.values());
    }

    /** The member's data directory, which it keeps between a stop and a start. */
    Path directory(final int nodeId)
    {
        return TestNodes.config(members, nodeId, dir, server).dataDir();
    }

    /** A running node that does not lead the partition, as the client finds its leader. */
    ClusterNode followerOf(final ClusterClient client, final String topic, final int partition)
    {
        final int leader = client.leaderOf(topic, partition);
        return running.values().stream().filter(node -> node.nodeId() != leader).findFirst().orElseThrow(() ->
            new IllegalStateException("no running node follows the leader " + leader + " of " + topic + "-" +
                partition + "; running are " + running.keySet()));
    }

    @Override
    public void close()
    {
        stopAll();
    }
}
