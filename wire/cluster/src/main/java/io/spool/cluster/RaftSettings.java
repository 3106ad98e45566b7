package io.spool.cluster;

import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;

import java.io.File;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The Ratis settings a cluster node and a cluster client run with, in one place. Stateless, thread-safe.
 */
final class RaftSettings
{
    /** The largest entry (one published batch, with its framing); the Raft log's buffers are sized to hold one. */
    static final int MAX_ENTRY_BYTES = 4 << 20;
    private static final Duration CLIENT_REQUEST_TIMEOUT = Duration.ofSeconds(3);

    private RaftSettings()
    {
    }

    /**
     * @param electionTimeout the least time a follower waits without hearing from its leader before it stands for
     *                        election; it waits up to twice that, at random, so that candidates rarely collide.
     */
    static RaftProperties server(final File storage, final String host, final int port, final Duration electionTimeout)
    {
        final RaftProperties properties = common();
        RaftServerConfigKeys.setStorageDir(properties, List.of(storage));
        GrpcConfigKeys.Server.setHost(properties, host);
        GrpcConfigKeys.Server.setPort(properties, port);
        RaftServerConfigKeys.Rpc.setTimeoutMin(properties, millis(electionTimeout.toMillis()));
        RaftServerConfigKeys.Rpc.setTimeoutMax(properties, millis(electionTimeout.toMillis() * 2));
        // Small groups are many (one per partition): modest segments, little preallocated space each.
        RaftServerConfigKeys.Log.setSegmentSizeMax(properties, SizeInBytes.valueOf(16L << 20));
        RaftServerConfigKeys.Log.setPreallocatedSize(properties, SizeInBytes.valueOf(1L << 20));
        RaftServerConfigKeys.Log.setWriteBufferSize(properties, SizeInBytes.valueOf(MAX_ENTRY_BYTES + (64 << 10)));
        RaftServerConfigKeys.Log.Appender.setBufferByteLimit(properties, SizeInBytes.valueOf(MAX_ENTRY_BYTES));
        // The group's Raft log is kept whole: a restarted node rebuilds what its own log lost by applying it again.
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(properties, false);
        return properties;
    }

    static RaftProperties client()
    {
        final RaftProperties properties = common();
        RaftClientConfigKeys.Rpc.setRequestTimeout(properties, millis(CLIENT_REQUEST_TIMEOUT.toMillis()));
        return properties;
    }

    private static RaftProperties common()
    {
        final RaftProperties properties = new RaftProperties();
        RaftConfigKeys.Rpc.setType(properties, SupportedRpcType.GRPC);
        GrpcConfigKeys.setMessageSizeMax(properties, SizeInBytes.valueOf(MAX_ENTRY_BYTES + (1 << 20)));
        return properties;
    }

    private static TimeDuration millis(final long millis)
    {
        return TimeDuration.valueOf(millis, TimeUnit.MILLISECONDS);
    }
}
