package io.spool.cluster;

import io.spool.wire.server.ServerConfig;

import java.nio.file.Path;
import java.time.Duration;

/** How the tests run a node in their own JVM: a free client port, a short election timeout, under one directory. */
final class TestNodes
{
    static final Duration ELECTION_TIMEOUT = Duration.ofMillis(500);

    private TestNodes()
    {
    }

    static ClusterNodeConfig config(final ClusterMembers members, final int nodeId, final Path dir)
    {
        return config(members, nodeId, dir, ServerConfig.builder().port(0));
    }

    /** As {@link #config}, with a Kafka listener on a free loopback port. */
    static ClusterNodeConfig withKafka(final ClusterMembers members, final int nodeId, final Path dir)
    {
        return config(members, nodeId, dir, ServerConfig.builder().port(0).kafka("127.0.0.1", 0));
    }

    private static ClusterNodeConfig config(final ClusterMembers members, final int nodeId, final Path dir,
        final ServerConfig.Builder server)
    {
        return new ClusterNodeConfig(nodeId, members, dir.resolve("node-" + nodeId), server, ELECTION_TIMEOUT);
    }
}
