package io.spool.cluster;

import io.spool.api.stream.TopicConfig;
import io.spool.cluster.StoredFrames.Stored;
import io.spool.testing.CrashTest;
import io.spool.testing.SmallDisk;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three nodes as child JVMs, each with its data directory on a small disk of its own; under load one node's disk
 * is cut to just above what it holds, so its next writes meet a real ENOSPC. The node says so in its log, naming
 * the directory, and leaves the partition's group; the other two keep confirming (a full leader gives up its
 * leadership that way). Once its disk is given room again and it is restarted, it catches up to the same bytes,
 * and the history check finds every confirmed record where its confirm said. A full disk met by the metadata group
 * (a topic created) stops the node instead, and restarted with room it creates the topic it missed.
 */
@CrashTest
class FullDiskTest
{
    private static final String TOPIC = "events";
    /** A topic created once a node's disk is full. */
    private static final String LATER_TOPIC = "orders";
    private static final int PROGRESS = 100;
    private static final Duration PROGRESS_WAIT = Duration.ofSeconds(60);
    /** Room for a node's logs in this test, many times what it writes. */
    private static final long DISK_BYTES = 256L << 20;
    /** What is left on the full node's disk: less than the next Raft segment and the next stretch of its log. */
    private static final long HEADROOM = 64 << 10;
    private static final String WHOLE_DATA_DIRECTORY = "";
    /** Far more commits than fill the last page of the offsets file. */
    private static final int MAX_COMMITS = 2_000;
    /** Bytes added to each value while the disk fills. */
    private static final int PADDING = 32 << 10;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    private final List<SmallDisk> disks = new ArrayList<>();
    private ChildNodes cluster;

    @AfterEach
    void stop()
    {
        if (cluster != null)
        {
            cluster.close();
        }
        disks.forEach(SmallDisk::close);
    }

    @Test
    void aFollowerWhoseDiskFillsLeavesTheGroupAndCatchesUpOnceItHasRoomAgain() throws Exception
    {
        fillOneNodeUnderLoad(false, WHOLE_DATA_DIRECTORY);
    }

    @Test
    void aLeaderWhoseDiskFillsGivesUpLeadershipAndTheOthersGoOnConfirming() throws Exception
    {
        fillOneNodeUnderLoad(true, WHOLE_DATA_DIRECTORY);
    }

    /** The Raft log has room and the Spool log has none: the store of a committed entry fails at the leader. */
    @Test
    void aLeaderWhoseSpoolLogCannotStoreAConfirmedEntryGivesUpLeadershipAndConfirmsNothingItDidNotStore()
        throws Exception
    {
        fillOneNodeUnderLoad(true, "log");
    }

    /**
     * A follower's log disk filled while nothing is published: the commit of a consumer group's offset is the write
     * that finds no room, and it must not leave this node's offsets unlike the others'.
     */
    @Test
    void aFollowerThatCannotStoreACommittedOffsetLeavesTheGroup() throws Exception
    {
        launchOnSmallDisks("log");
        final PublishHistory history = new PublishHistory();
        try (ClusterClient client = ClusterClient.connect(cluster.members()))
        {
            client.createTopic(TOPIC, 3, TopicConfig.of(1));
            try (PublishLoad load = new PublishLoad(client.newProducer()::send, TOPIC, 1, history, PROGRESS))
            {
                history.awaitConfirmed(PROGRESS, PROGRESS_WAIT);
            }
            final NodeProcess full = cluster.node(client.leaderOf(TOPIC, 0) % 3 + 1);
            disks.get(full.nodeId() - 1).fillUpTo(0);
            // the offsets file is appended to, so the commit that needs a new page is the one refused
            long committed = 0;
            for (int commit = 0; commit < MAX_COMMITS && !saysFull(full, "a consumer group's offset", "log"); commit++)
            {
                committed = commit % PROGRESS + 1;
                client.commitOffset("billing", TOPIC, 0, committed);
            }
            awaitSaysFull(full, "a consumer group's offset", "log");
            try (PublishLoad load = new PublishLoad(client.newProducer()::send, TOPIC, 1, history))
            {
                history.awaitConfirmed(history.confirmedBatches() + PROGRESS, PROGRESS_WAIT);
            }
            assertThat(client.committedOffset("billing", TOPIC, 0)).isEqualTo(committed);
            restartWithRoom(client, full);
        }
        assertThat(history.violations(cluster.stopAndCompare(TOPIC, 1))).isEmpty();
    }

    /**
     * The metadata group's leader cannot create a new topic's files: it says so once and stops, without skipping
     * the entry; the other two create the topic and answer the client, and publishes to either topic go on.
     * Restarted with room, the node creates the topic, joins its groups and holds the same records.
     */
    @Test
    void aMetadataLeaderThatCannotCreateATopicsFilesStopsAndCreatesItOnceRestartedWithRoom()
        throws Exception
    {
        launchOnSmallDisks(WHOLE_DATA_DIRECTORY);
        final PublishHistory history = new PublishHistory();
        final PublishHistory later = new PublishHistory();
        try (ClusterClient client = ClusterClient.connect(cluster.members()))
        {
            client.createTopic(TOPIC, 3, TopicConfig.of(1));
            final NodeProcess full = cluster.node(client.metadataLeader());
            try (PublishLoad load = new PublishLoad(client.newProducer()::send, TOPIC, 1, history))
            {
                history.awaitConfirmed(PROGRESS, PROGRESS_WAIT);
                disks.get(full.nodeId() - 1).fillUpTo(0);
                client.createTopic(LATER_TOPIC, 3, TopicConfig.of(1));
                awaitSaysFull(full, "the files of topic " + LATER_TOPIC, "log");
                history.awaitConfirmed(history.confirmedBatches() + PROGRESS, PROGRESS_WAIT);
            }
            assertThat(client.metadataLeader()).isNotEqualTo(full.nodeId());
            try (PublishLoad load = new PublishLoad(client.newProducer()::send, LATER_TOPIC, 1, later))
            {
                later.awaitConfirmed(PROGRESS, PROGRESS_WAIT);
            }
            assertThat(runLog(full).lines().filter(line -> line.contains("stopped: it cannot write")))
                .as("what node %d says of its stop", full.nodeId()).hasSize(1);
            restartWithRoom(client, full);
            cluster.awaitCaughtUp(client, LATER_TOPIC, 1, PROGRESS_WAIT);
        }
        assertThat(history.violations(cluster.stopAndCompare(TOPIC, 1))).isEmpty();
        assertThat(later.violations(NodeLogs.sameOnEveryNode(cluster.nodes(), LATER_TOPIC, 1))).isEmpty();
    }

    /**
     * @param leader whether the node whose disk fills leads the partition (else it follows).
     * @param under  the directory of each node's data directory that is on the small disk.
     */
    private void fillOneNodeUnderLoad(final boolean leader, final String under) throws Exception
    {
        launchOnSmallDisks(under);
        final PublishHistory history = new PublishHistory();
        try (ClusterClient client = ClusterClient.connect(cluster.members()))
        {
            client.createTopic(TOPIC, 3, TopicConfig.of(1));
            final NodeProcess full;
            try (PublishLoad load = new PublishLoad(client.newProducer()::send, TOPIC, 1, history))
            {
                history.awaitConfirmed(PROGRESS, PROGRESS_WAIT);
                final int leaderId = client.leaderOf(TOPIC, 0);
                full = cluster.node(leader ? leaderId : leaderId % 3 + 1);
                disks.get(full.nodeId() - 1).fillUpTo(HEADROOM);
                // past what the node's log has reserved ahead of its writer, soon
                load.pad(PADDING);
                awaitSaysFull(full, "", under);
                load.pad(0);
                final int confirmedWhenFull = history.confirmedBatches();
                history.awaitConfirmed(confirmedWhenFull + 2 * PROGRESS, PROGRESS_WAIT);
                assertThat(client.leaderOf(TOPIC, 0)).isNotEqualTo(full.nodeId());
            }
            restartWithRoom(client, full);
        }
        final Map<Integer, List<Stored>> first = cluster.stopAndCompare(TOPIC, 1);
        assertThat(history.violations(first)).isEmpty();
    }

    /** Mounts a small disk of its own on {@code under} of every node's data directory, and starts the nodes. */
    private void launchOnSmallDisks(final String under)
    {
        for (int node = 1; node <= 3; node++)
        {
            disks.add(SmallDisk.mount(dir.resolve("node-" + node).resolve(under), DISK_BYTES));
        }
        cluster = ChildNodes.launch(dir, 3);
    }

    /** Waits for the node's one line saying it cannot write {@code what} to its full disk under {@code under}. */
    private static void awaitSaysFull(final NodeProcess full, final String what, final String under)
    {
        Eventually.holds(() -> saysFull(full, what, under), PROGRESS_WAIT, () -> "node " + full.nodeId() +
            " says the disk of " + full.dataDir().resolve(under) + " is full; its log: " + runLog(full));
    }

    private static boolean saysFull(final NodeProcess full, final String what, final String under)
    {
        final String directory = full.dataDir().resolve(under).toString();
        return runLog(full).lines().anyMatch(line -> line.contains("cannot write " + what) &&
            line.contains(directory) && line.contains("its disk is full") && line.contains("restart the node"));
    }

    /** Kills the full node, gives its disk room again, restarts it and waits until it caught up. */
    private void restartWithRoom(final ClusterClient client, final NodeProcess full)
    {
        full.kill();
        disks.get(full.nodeId() - 1).resize(DISK_BYTES);
        full.start();
        cluster.awaitCaughtUp(client, TOPIC, 1, PROGRESS_WAIT);
    }

    private static String runLog(final NodeProcess node)
    {
        try
        {
            return Files.readString(node.runLog());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
