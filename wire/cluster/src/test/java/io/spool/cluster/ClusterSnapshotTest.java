package io.spool.cluster;

import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicPartition;
import io.spool.cluster.ClusterEntryDescriptor.Reply;
import io.spool.queue.ReplicatedPartitionState.OffsetState;
import io.spool.testing.SlowTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Every group snapshots its state and trims its Raft log; a node restarted after that loads the snapshot, applies
 * only the entries after it, and ends with the same records, queue state, producer windows and group offsets as
 * before.
 */
@SlowTest
class ClusterSnapshotTest
{
    private static final String TOPIC = "ledger";
    private static final String SUBSCRIPTION = "billing";
    private static final String GROUP = "auditors";
    private static final TopicPartition WHERE = new TopicPartition(TOPIC, 0);
    private static final long PRODUCER = 42L;
    /** Records published before the subscription's receive. */
    private static final int QUEUED = 6;
    /** Batches published before the snapshot. */
    private static final int BEFORE_SNAPSHOT = 40;
    /** Large enough that the batches fill and close Raft log segments, which is what trimming removes. */
    private static final int VALUE_BYTES = 512 << 10;
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private InJvmCluster cluster;

    @BeforeEach
    void create()
    {
        cluster = new InJvmCluster(3, dir, config -> config.withSnapshotEveryEntries(1_000));
    }

    @AfterEach
    void stop()
    {
        cluster.close();
    }

    @Test
    void aRestartLoadsTheSnapshotAndEndsWithTheSameRecordsQueueStateWindowsAndOffsets() throws Exception
    {
        cluster.startAll();
        final List<OffsetState> queueBefore;
        final Reply confirmedBeforeSnapshot;
        final Reply confirmedAfterSnapshot;
        final ClusterDelivery held;
        final long end;
        try (ClusterClient client = ClusterClient.connect(cluster.members()))
        {
            held = queueAndSettleAllButOne(client);
            client.commitOffset(GROUP, TOPIC, 0, 4);
            // enough entries after the queue and offset entries to close segments, so the trim removes them
            Reply last = null;
            for (long sequence = QUEUED; sequence < BEFORE_SNAPSHOT; sequence++)
            {
                last = publish(client, sequence);
            }
            confirmedBeforeSnapshot = last;
            awaitEveryNodeAt(client.endOffset(TOPIC, 0));
            for (final ClusterNode node : cluster.nodes())
            {
                final int segmentsBefore = raftSegments(node);
                assertThat(segmentsBefore).as("Raft log segments of node %d before its snapshot", node.nodeId())
                    .isGreaterThan(2);
                node.takeSnapshot(WHERE);
                node.takeMetadataSnapshot();
                // Ratis' log worker removes the purged segments after the snapshot is taken
                Eventually.holds(() -> raftSegments(node) < segmentsBefore, WAIT,
                    () -> "node " + node.nodeId() + " removes Raft log segments behind its snapshot, of " +
                        segmentsBefore);
                assertThat(node.raftLogStart(WHERE)).as("first Raft log entry left on node %d", node.nodeId())
                    .isGreaterThan(10);
            }
            Reply afterSnapshot = null;
            for (long sequence = BEFORE_SNAPSHOT; sequence < BEFORE_SNAPSHOT + 4; sequence++)
            {
                afterSnapshot = publish(client, sequence);
            }
            confirmedAfterSnapshot = afterSnapshot;
            end = client.endOffset(TOPIC, 0);
            awaitEveryNodeAt(end);
            queueBefore = queueState(cluster.node(1));
        }
        final List<byte[]> framesBefore = StoredFrames.of(cluster.node(1).engine(), TOPIC, 0);
        cluster.stopAll();

        cluster.startAll();
        for (final ClusterNode node : cluster.nodes())
        {
            assertThat(node.raftLogStart(WHERE)).as("first Raft log entry left on node %d after the restart",
                node.nodeId()).isGreaterThan(10);
        }
        try (ClusterClient client = ClusterClient.connect(cluster.members()))
        {
            assertRetryAnsweredWith(client, BEFORE_SNAPSHOT - 1, confirmedBeforeSnapshot);
            assertRetryAnsweredWith(client, BEFORE_SNAPSHOT + 3, confirmedAfterSnapshot);
            assertThat(client.committedOffset(GROUP, TOPIC, 0)).isEqualTo(4);
            assertThat(client.endOffset(TOPIC, 0)).as("nothing stored twice").isEqualTo(end);
            awaitEveryNodeAt(end);
            for (final ClusterNode node : cluster.nodes())
            {
                assertThat(StoredFrames.of(node.engine(), TOPIC, 0)).as("frames of node %d", node.nodeId())
                    .containsExactlyElementsOf(framesBefore);
                assertThat(queueState(node)).as("queue state on node %d", node.nodeId())
                    .containsExactlyElementsOf(queueBefore);
                assertThat(node.engine().streams().groups().committed(GROUP, WHERE))
                    .as("group offset on node %d", node.nodeId()).isEqualTo(4);
            }
            // the lock taken before the snapshot still stands: its receipt settles, and nothing else is handed out
            client.ack(held.receipt());
            final List<ClusterDelivery> next = client.receive(TOPIC, 0, SUBSCRIPTION, 2, 600_000);
            assertThat(next).extracting(ClusterDelivery::offset).containsExactly(3L, 5L);
            assertThat(next.get(0).deliveryCount()).isEqualTo(2);
        }
    }

    /**
     * A member down while the others snapshot and purge their Raft logs is behind their logs' start when it comes
     * back: the leader sends it the snapshot, and it fetches the records its log lacks from the others' logs.
     */
    @Test
    void aMemberBehindThePurgedLogIsSentTheSnapshotAndFetchesItsRecords() throws Exception
    {
        cluster.startAll();
        final long end;
        final long snapshotIndex;
        try (ClusterClient client = ClusterClient.connect(cluster.members()))
        {
            client.createTopic(TOPIC, 3, TopicConfig.of(1));
            for (long sequence = 0; sequence < QUEUED; sequence++)
            {
                publish(client, sequence);
            }
            awaitEveryNodeAt(QUEUED);
            cluster.stop(3);
            for (long sequence = QUEUED; sequence < BEFORE_SNAPSHOT; sequence++)
            {
                publish(client, sequence);
            }
            long taken = Long.MAX_VALUE;
            for (final ClusterNode node : cluster.nodes())
            {
                taken = Math.min(taken, node.takeSnapshot(WHERE));
                Eventually.holds(() -> raftLogStart(node) > QUEUED + 10, WAIT,
                    () -> "node " + node.nodeId() + " purges its Raft log behind its snapshot");
            }
            snapshotIndex = taken;
            cluster.start(3);
            publish(client, BEFORE_SNAPSHOT);
            end = client.endOffset(TOPIC, 0);
            awaitEveryNodeAt(end);
        }
        assertThat(cluster.node(3).raftLogStart(WHERE)).as("where the returned member's Raft log starts")
            .isGreaterThan(snapshotIndex);
        final List<byte[]> frames = StoredFrames.of(cluster.node(1).engine(), TOPIC, 0);
        assertThat(frames).hasSize((int)end);
        for (final ClusterNode node : cluster.nodes())
        {
            assertThat(StoredFrames.of(node.engine(), TOPIC, 0)).as("frames of node %d", node.nodeId())
                .containsExactlyElementsOf(frames);
        }
    }

    /**
     * What the guide says of a damaged snapshot file: the node refuses to start, naming the file and its group's
     * directory; with that directory moved out of raft/ it starts, rejoins the group, and gets the state and the
     * records it lacks from the other members (here the leader's snapshot, since their logs were trimmed while it
     * was down, and the records published meanwhile).
     */
    @Test
    void aDamagedSnapshotFileStopsTheNodeAndMovingItsGroupOutOfRaftMakesItRejoinWithTheSameRecordsAndQueueState()
        throws Exception
    {
        cluster.startAll();
        try (ClusterClient client = ClusterClient.connect(cluster.members()))
        {
            queueAndSettleAllButOne(client);
            awaitEveryNodeAt(QUEUED);
            cluster.node(1).takeSnapshot(WHERE);
            cluster.stop(1);
            for (long sequence = QUEUED; sequence < BEFORE_SNAPSHOT; sequence++)
            {
                publish(client, sequence);
            }
            for (final ClusterNode node : cluster.nodes())
            {
                node.takeSnapshot(WHERE);
                Eventually.holds(() -> raftLogStart(node) > QUEUED + 10, WAIT,
                    () -> "node " + node.nodeId() + " purges its Raft log behind its snapshot");
            }
        }
        final Path snapshot = partitionSnapshotOf(1);
        final byte[] bytes = Files.readAllBytes(snapshot);
        bytes[bytes.length / 2] ^= 0x5a;
        Files.write(snapshot, bytes);

        final Throwable refusal = catchThrowable(() -> cluster.start(1));
        assertThat(refusal).hasStackTraceContaining(snapshot.toString())
            .hasStackTraceContaining("does not match its MD5 file");
        final Path named = groupDirectoryNamedBy(refusal);
        assertThat(named).isEqualTo(groupDirectory(1));
        Files.move(named, dir.resolve("moved-out-of-raft"));

        cluster.start(1);
        final long end;
        try (ClusterClient client = ClusterClient.connect(cluster.members()))
        {
            publish(client, BEFORE_SNAPSHOT);
            end = client.endOffset(TOPIC, 0);
            awaitEveryNodeAt(end);
        }
        assertThat(cluster.node(1).raftLogStart(WHERE)).as("where the rejoined node's Raft log starts: it was sent " +
            "the snapshot, since the others' logs no longer hold the entries before it").isGreaterThan(QUEUED + 10);
        final List<byte[]> frames = StoredFrames.of(cluster.node(2).engine(), TOPIC, 0);
        assertThat(frames).hasSize((int)end);
        assertThat(StoredFrames.of(cluster.node(1).engine(), TOPIC, 0)).as("frames of the rejoined node")
            .containsExactlyElementsOf(frames);
        final List<OffsetState> queue = queueState(cluster.node(2));
        assertThat(queue).extracting(OffsetState::state).contains("ACKED", "DEAD", "ACQUIRED");
        assertThat(queueState(cluster.node(1))).as("queue state of the rejoined node")
            .containsExactlyElementsOf(queue);
    }

    /** The group directory the refusal says to move out of raft/. */
    private static Path groupDirectoryNamedBy(final Throwable refusal)
    {
        final Pattern remedy = Pattern.compile("move the group's directory \\((.+?)\\) out of raft/");
        for (Throwable cause = refusal; cause != null; cause = cause.getCause())
        {
            final Matcher named = remedy.matcher(String.valueOf(cause.getMessage()));
            if (named.find())
            {
                return Path.of(named.group(1));
            }
        }
        throw new AssertionError("the refusal names no group directory to move", refusal);
    }

    /**
     * Creates the topic and the subscription, publishes {@link #QUEUED} records and settles the first four of
     * five deliveries (an ack, a delayed nack, a reject, a nack); the fifth stays held.
     */
    private static ClusterDelivery queueAndSettleAllButOne(final ClusterClient client) throws Exception
    {
        client.createTopic(TOPIC, 3, TopicConfig.of(1));
        client.createSubscription(TOPIC, SUBSCRIPTION,
            SubscriptionSettings.builder().lockTimeoutMillis(600_000).deliveryLimit(5).build());
        for (long sequence = 0; sequence < QUEUED; sequence++)
        {
            publish(client, sequence);
        }
        final List<ClusterDelivery> deliveries = client.receive(TOPIC, 0, SUBSCRIPTION, 5, 600_000);
        assertThat(deliveries).hasSize(5);
        client.ack(deliveries.get(0).receipt());
        client.nack(deliveries.get(1).receipt(), 600_000);
        client.reject(deliveries.get(2).receipt());
        client.nack(deliveries.get(3).receipt(), 0);
        return deliveries.get(4);
    }

    /**
     * Two members restart with logs cut below their snapshots while the third, the only one that could give them
     * the records, is down: their repairs wait, and so does every record committed meanwhile, which Ratis waits for
     * before it stops a group. Closing must end the repairs rather than wait for them.
     */
    @Test
    void aNodeClosesWhileItsRepairAndTheEntriesWaitingForItCannotFinish() throws Exception
    {
        cluster.startAll();
        try (ClusterClient client = ClusterClient.connect(cluster.members()))
        {
            client.createTopic(TOPIC, 3, TopicConfig.of(1));
            for (long sequence = 0; sequence < 6; sequence++)
            {
                publishSmall(client, sequence);
            }
            awaitEveryNodeAt(6);
        }
        cluster.stopAll();
        for (final int nodeId : List.of(1, 2))
        {
            LogDamage.damage(cluster.directory(nodeId), TOPIC, "value 3");
        }
        cluster.start(1);
        cluster.start(2);
        try (ClusterClient client = ClusterClient.connect(cluster.members()))
        {
            final CompletableFuture<?> waiting = client.publish(WHERE, ClusterEntryDescriptor.publish(PRODUCER, 6,
                List.of(ProducerRecord.toPartition(TOPIC, 0, null, "value 6".getBytes(UTF_8)))));
            for (final ClusterNode node : cluster.nodes())
            {
                Eventually.holds(() -> replicatedEnd(node) == 7, WAIT,
                    () -> "node " + node.nodeId() + " applies the publish after its restart");
            }
            assertThat(waiting).as("a record stored only after the repair").isNotDone();
            for (final ClusterNode node : cluster.nodes())
            {
                CompletableFuture.runAsync(() -> cluster.stop(node.nodeId()))
                    .get(WAIT.toSeconds(), TimeUnit.SECONDS);
            }
        }
    }

    private void assertRetryAnsweredWith(final ClusterClient client, final long sequence, final Reply confirmed)
        throws Exception
    {
        final Reply retry = publish(client, sequence);
        assertThat(retry.status()).as("a retry of batch %d", sequence).isEqualTo(ClusterEntryDescriptor.STATUS_DUPLICATE);
        assertThat(retry.baseOffset()).as("the first offset a retry of batch %d is answered with", sequence)
            .isEqualTo(confirmed.baseOffset());
    }

    private static Reply publishSmall(final ClusterClient client, final long sequence) throws Exception
    {
        final List<ProducerRecord> records = List.of(ProducerRecord.toPartition(TOPIC, 0, null,
            ("value " + sequence).getBytes(UTF_8)));
        return ClusterEntryDescriptor.decodeReply(client.publish(WHERE,
            ClusterEntryDescriptor.publish(PRODUCER, sequence, records)).get(30, TimeUnit.SECONDS)
            .getMessage().getContent());
    }

    private static long raftLogStart(final ClusterNode node)
    {
        try
        {
            return node.raftLogStart(WHERE);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static long replicatedEnd(final ClusterNode node)
    {
        try
        {
            return node.replicatedEnd(WHERE);
        }
        catch (final IOException notYetJoined)
        {
            return -1;
        }
    }

    /** Closed and open Raft log segment files of the partition's group on the node. */
    private int raftSegments(final ClusterNode node)
    {
        try (Stream<Path> files = Files.list(groupDirectory(node.nodeId()).resolve("current")))
        {
            return (int)files.filter(file -> file.getFileName().toString().startsWith("log_")).count();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private Path partitionSnapshotOf(final int nodeId) throws IOException
    {
        try (Stream<Path> files = Files.list(groupDirectory(nodeId).resolve("sm")))
        {
            return files.filter(file -> file.getFileName().toString().matches("snapshot\\.\\d+_\\d+"))
                .findFirst().orElseThrow();
        }
    }

    private Path groupDirectory(final int nodeId)
    {
        return RaftDirectories.onlyOfPartition(cluster.directory(nodeId), cluster.members(), WHERE);
    }

    private static Reply publish(final ClusterClient client, final long sequence) throws Exception
    {
        final byte[] value = new byte[VALUE_BYTES];
        Arrays.fill(value, (byte)('a' + sequence % 26));
        final List<ProducerRecord> records = List.of(new ProducerRecord(TOPIC, 0, 1_000L + sequence, null, Map.of(),
            value));
        return ClusterEntryDescriptor.decodeReply(client.publish(WHERE,
            ClusterEntryDescriptor.publish(PRODUCER, sequence, records)).get(30, TimeUnit.SECONDS)
            .getMessage().getContent());
    }

    private void awaitEveryNodeAt(final long end)
    {
        for (final ClusterNode node : cluster.nodes())
        {
            Eventually.holds(() -> node.engine().streams().topics().topic(TOPIC).partition(0).endOffset() == end,
                WAIT, () -> "node " + node.nodeId() + " stores " + end + " records");
        }
    }

    /**
     * The state of every offset the subscription has met: those its one receive saw. A settled (acked or dead)
     * message's delivery count is left out: the queue layer's snapshot does not keep it, since nothing is delivered
     * or judged by it again.
     */
    private static List<OffsetState> queueState(final ClusterNode node) throws IOException
    {
        final List<OffsetState> states = new ArrayList<>();
        for (long offset = 0; offset < QUEUED; offset++)
        {
            final OffsetState state = node.subscriptions(WHERE).state(SUBSCRIPTION).stateOf(offset);
            final boolean settled = state.state().equals("ACKED") || state.state().equals("DEAD");
            states.add(settled ? new OffsetState(state.state(), 0) : state);
        }
        return states;
    }
}
