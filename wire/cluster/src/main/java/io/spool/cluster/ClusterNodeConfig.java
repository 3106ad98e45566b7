package io.spool.cluster;

import io.spool.wire.server.ServerConfig;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How to run one node of a cluster: its id in the member list, the list, the data directory (the node's Spool log
 * under {@code log/}, its Raft groups under {@code raft/}), the native server clients read from, and the election
 * timeout. Immutable, thread-safe.
 *
 * @param electionTimeout the least time a follower waits for its leader before standing for election (it waits
 *                        up to twice as long); a failover takes about this long and more.
 */
public record ClusterNodeConfig(int nodeId, ClusterMembers members, Path dataDir, ServerConfig server,
                                Duration electionTimeout)
{
    public static final Duration DEFAULT_ELECTION_TIMEOUT = Duration.ofSeconds(1);

    public ClusterNodeConfig
    {
        members.member(nodeId);
        if (electionTimeout.isNegative() || electionTimeout.toMillis() < 50)
        {
            throw new IllegalArgumentException("election timeout must be at least 50 ms, was " + electionTimeout);
        }
    }

    public ClusterNodeConfig(final int nodeId, final ClusterMembers members, final Path dataDir,
        final ServerConfig server)
    {
        this(nodeId, members, dataDir, server, DEFAULT_ELECTION_TIMEOUT);
    }
}
