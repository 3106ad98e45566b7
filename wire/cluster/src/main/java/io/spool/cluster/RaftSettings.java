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
    /** The Raft log's segment size: twice the largest entry, so that one always fits. */
    static final long SEGMENT_BYTES = 2L * MAX_ENTRY_BYTES;
    private static final Duration CLIENT_REQUEST_TIMEOUT = Duration.ofSeconds(3);

    private RaftSettings()
    {
    }

    /**
     * @param electionTimeout      the least time a follower waits without hearing from its leader before it stands
     *                             for election; it waits up to twice that, at random, so that candidates rarely
     *                             collide.
     * @param snapshotEveryEntries how many entries a group applies between two snapshots, each of which trims its
     *                             Raft log.
     */
    static RaftProperties server(final File storage, final String host, final int port, final Duration electionTimeout,
        final int snapshotEveryEntries)
    {
        final RaftProperties properties = common();
        RaftServerConfigKeys.setStorageDir(properties, List.of(storage));
        GrpcConfigKeys.Server.setHost(properties, host);
        GrpcConfigKeys.Server.setPort(properties, port);
        RaftServerConfigKeys.Rpc.setTimeoutMin(properties, millis(electionTimeout.toMillis()));
        RaftServerConfigKeys.Rpc.setTimeoutMax(properties, millis(electionTimeout.toMillis() * 2));
        // Small groups are many (one per partition): modest segments, little preallocated space each. A segment
        // holds the largest entry; the log is trimmed by whole closed segments, so their size bounds what stays.
        RaftServerConfigKeys.Log.setSegmentSizeMax(properties, SizeInBytes.valueOf(SEGMENT_BYTES));
        RaftServerConfigKeys.Log.setPreallocatedSize(properties, SizeInBytes.valueOf(1L << 20));
        RaftServerConfigKeys.Log.setWriteBufferSize(properties, SizeInBytes.valueOf(MAX_ENTRY_BYTES + (64 << 10)));
        RaftServerConfigKeys.Log.Appender.setBufferByteLimit(properties, SizeInBytes.valueOf(MAX_ENTRY_BYTES));
        // Every group snapshots its state every so many entries (and when the node stops), and each snapshot
        // purges the closed Raft log segments behind it, also past a member that lags or is down: that member is
        // sent the snapshot (Ratis' install-snapshot) and fetches the records it lacks from the others' Spool
        // logs (LogRepair), so that no member can make every other member's Raft log grow (decision 017).
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(properties, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(properties, snapshotEveryEntries);
        RaftServerConfigKeys.Snapshot.setCreationGap(properties, 1);
        RaftServerConfigKeys.Snapshot.setRetentionFileNum(properties, 1);
        RaftServerConfigKeys.Log.setPurgeGap(properties, 1);
        RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(properties, true);
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
