package io.spool.cluster;

import io.spool.wire.server.ServerConfig;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/** Three nodes in the test's JVM, each under {@code node-<id>} of one directory, stopped and started by id. */
final class InJvmCluster implements AutoCloseable
{
    private final ClusterMembers members = LoopbackPorts.members(3);
    private final Path dir;
    private final UnaryOperator<ServerConfig.Builder> server;
    private final List<ClusterNode> nodes = new ArrayList<>();

    /** @param server what each node's native server is given beside a free port (a Kafka listener, say). */
    InJvmCluster(final Path dir, final UnaryOperator<ServerConfig.Builder> server)
    {
        this.dir = dir;
        this.server = server;
    }

    InJvmCluster(final Path dir)
    {
        this(dir, UnaryOperator.identity());
    }

    /** Starts every node that is not running. */
    InJvmCluster start()
    {
        for (final ClusterMembers.Member member : members.members())
        {
            if (nodes.stream().noneMatch(node -> node.nodeId() == member.id()))
            {
                startNode(member.id());
            }
        }
        return this;
    }

    /** Starts a node on its directory (again). */
    ClusterNode startNode(final int nodeId)
    {
        final ClusterNode node = ClusterNode.start(new ClusterNodeConfig(nodeId, members, nodeDirectory(nodeId),
            server.apply(ServerConfig.builder().port(0)), TestNodes.ELECTION_TIMEOUT));
        nodes.add(node);
        nodes.sort((one, other) -> Integer.compare(one.nodeId(), other.nodeId()));
        return node;
    }

    /** Closes a node; its directory stays. */
    void stopNode(final int nodeId)
    {
        final ClusterNode node = node(nodeId);
        nodes.remove(node);
        node.close();
    }

    ClusterNode node(final int nodeId)
    {
        return nodes.stream().filter(node -> node.nodeId() == nodeId).findFirst().orElseThrow();
    }

    /** The running nodes, by id. */
    List<ClusterNode> nodes()
    {
        return List.copyOf(nodes);
    }

    ClusterMembers members()
    {
        return members;
    }

    Path nodeDirectory(final int nodeId)
    {
        return dir.resolve("node-" + nodeId);
    }

    /** Closes every running node. */
    @Override
    public void close()
    {
        nodes.forEach(ClusterNode::close);
        nodes.clear();
    }
}
