package io.spool.cluster;

import io.spool.wire.server.ServerConfig;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.function.UnaryOperator;

/** How the tests run a node in their own JVM: a free client port, a short election timeout, under one directory. */
final class TestNodes
{
    static final Duration ELECTION_TIMEOUT = Duration.ofMillis(500);

    private TestNodes()
    {
    }

    static ClusterNodeConfig config(final ClusterMembers members, final int nodeId, final Path dir)
    {
        return config(members, nodeId, dir, UnaryOperator.identity());
    }

    /** @param server what the node's native server is given beside a free port (a Kafka listener, say). */
    static ClusterNodeConfig config(final ClusterMembers members, final int nodeId, final Path dir,
        final UnaryOperator<ServerConfig.Builder> server)
    {
        return new ClusterNodeConfig(nodeId, members, dir.resolve("node-" + nodeId),
            server.apply(ServerConfig.builder().port(0)), ELECTION_TIMEOUT);
    }

    /** As {@link #config}, with a Kafka listener on a free loopback port. */
    static ClusterNodeConfig withKafka(final ClusterMembers members, final int nodeId, final Path dir)
    {
        return config(members, nodeId, dir, server -> server.kafka("127.0.0.1", 0));
    }

    /** Closes the nodes all at once: each node's consensus server takes a while to close, and they wait for none. */
    static void closeAll(final Collection<ClusterNode> nodes)
    {
        final List<Thread> closing = nodes.stream()
            .map(node -> new Thread(node::close, "close-node-" + node.nodeId())).toList();
        closing.forEach(Thread::start);
        for (final Thread thread : closing)
        {
            try
            {
                thread.join();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
