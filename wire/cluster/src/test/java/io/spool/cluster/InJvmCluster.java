package io.spool.cluster;

import io.spool.cluster.StoredFrames.Stored;
import io.spool.wire.server.ServerConfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

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

    /** Stops every running member, all at once: each node's consensus server takes a while to close. */
    void stopAll()
    {
        final List<ClusterNode> stopping = List.copyOf(running.values());
        running.clear();
        TestNodes.closeAll(stopping);
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

    /**
     * Waits until every running node holds at least the {@code end} records the cluster committed in the partition
     * and all hold as many, checks they are the same bytes on each, and returns them. A batch whose send failed may
     * still commit after {@code end} was read (the raft client retried it), so the nodes are compared at the end
     * they agree on, not at {@code end}.
     */
    List<Stored> awaitSameRecords(final String topic, final int partition, final long end, final Duration within)
        throws InterruptedException
    {
        for (final ClusterNode node : nodes())
        {
            assertThat(node.engine().streams().topics().topic(topic).partition(partition)
                .awaitEndAbove(end - 1, within.toNanos()))
                .as("node %d caught up to %d", node.nodeId(), end).isTrue();
        }
        Eventually.holds(() -> localEnds(topic, partition).stream().distinct().count() == 1, within,
            () -> "every node at the same end offset of " + topic + "-" + partition + ", but they stand at " +
                localEnds(topic, partition));
        final List<Stored> first = StoredFrames.records(nodes().get(0).engine(), topic, partition);
        for (final ClusterNode node : nodes())
        {
            assertThat(StoredFrames.of(node.engine(), topic, partition)).as("frames of node %d", node.nodeId())
                .containsExactlyElementsOf(first.stream().map(Stored::frame).toList());
        }
        assertThat((long)first.size()).isGreaterThanOrEqualTo(end);
        return first;
    }

    /** The end offset of the partition in each running node's own log, by node id. */
    List<Long> localEnds(final String topic, final int partition)
    {
        return nodes().stream().map(node -> node.engine().streams().topics().topic(topic).partition(partition)
            .endOffset()).toList();
    }

    /**
     * Takes a snapshot of the metadata group on a running node and puts it where a stopped node keeps its own, as
     * Ratis does when the leader sends it to a member that is behind its trimmed log.
     */
    void giveStoppedNodeTheMetadataSnapshotOf(final int from, final int stopped) throws IOException
    {
        final long index = node(from).takeMetadataSnapshot();
        final Path source = metadataSnapshots(from);
        final Path target = metadataSnapshots(stopped);
        try (Stream<Path> files = Files.list(source))
        {
            for (final Path file : files.filter(f -> f.getFileName().toString().matches("snapshot\\.\\d+_" + index +
                "(\\.md5)?")).toList())
            {
                Files.copy(file, target.resolve(file.getFileName()));
            }
        }
    }

    private Path metadataSnapshots(final int nodeId)
    {
        return directory(nodeId).resolve("raft")
            .resolve(new ClusterGroups(members).metadata().getGroupId().getUuid().toString()).resolve("sm");
    }

    @Override
    public void close()
    {
        stopAll();
    }
}
