package io.spool.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.spool.Spool;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicPartition;
import io.spool.cluster.ClusterEntryDescriptor.Reply;
import io.spool.stream.StreamEngine;
import io.spool.wire.Fields;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static io.spool.cluster.ClusterEntryDescriptor.STATUS_STALE_COORDINATOR;
import static io.spool.cluster.ClusterEntryDescriptor.STATUS_STORED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A partition group's commits and deletions of consumer-group offsets applied as a node applies them, from
 * coordinators of several epochs: whichever epoch is applied first, a lower one after a higher one is refused, an
 * unfenced commit is neither refused nor raises the epoch, and the group's snapshot keeps the epochs.
 */
class CoordinatorFencingTest
{
    private static final String TOPIC = "orders";
    private static final TopicPartition WHERE = new TopicPartition(TOPIC, 0);
    private static final int RECORDS = 10;

    @TempDir
    Path dir;

    private Spool engine;
    private StreamEngine streams;
    private CommittedRecords records;
    private ReplicatedSubscriptions subscriptions;
    private PartitionEntryApplier applier;
    /** Never sends: the partition has no subscription, so it owes no dead letters. */
    private final DeadLetterSender deadLetters = new DeadLetterSender(null);

    @BeforeEach
    void start()
    {
        engine = Spool.open(dir.resolve("log"));
        streams = engine.streams();
        streams.createTopic(TOPIC, TopicConfig.of(1));
        records = newRecords();
        subscriptions = new ReplicatedSubscriptions(TOPIC, 0);
        applier = applier(records, subscriptions);
        final List<ProducerRecord> batch = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++)
        {
            batch.add(ProducerRecord.toPartition(TOPIC, 0, null, ("record-" + i).getBytes(StandardCharsets.UTF_8)));
        }
        assertThat(apply(ClusterEntryDescriptor.publish(1, 0, ClusterProducer.stamped(batch))).status())
            .isEqualTo(STATUS_STORED);
    }

    @AfterEach
    void stop()
    {
        deadLetters.close();
        engine.close();
    }

    @Test
    void aCommitFromAnOlderCoordinatorAfterANewerOnesIsRefusedAndTheOffsetStays()
    {
        assertThat(commit("billing", 6, 7).status()).isEqualTo(STATUS_STORED);
        final Reply stale = commit("billing", 2, 5);
        assertThat(stale.status()).isEqualTo(STATUS_STALE_COORDINATOR);
        assertThat(stale.problem()).contains("epoch 5", "epoch 7", "no longer coordinates the group");
        assertThat(committed("billing")).isEqualTo(6);
        assertThat(commit("billing", 7, 7).status()).as("the same epoch again").isEqualTo(STATUS_STORED);
        assertThat(commit("billing", 8, 9).status()).isEqualTo(STATUS_STORED);
        assertThat(commit("billing", 3, 7).status()).as("the epoch before the latest")
            .isEqualTo(STATUS_STALE_COORDINATOR);
        assertThat(committed("billing")).isEqualTo(8);
    }

    @Test
    void theOrderOfApplyDecidesNotTheEpochsSize()
    {
        assertThat(commit("billing", 2, 5).status()).isEqualTo(STATUS_STORED);
        assertThat(commit("billing", 6, 7).status()).isEqualTo(STATUS_STORED);
        assertThat(committed("billing")).as("the later entry, of the higher epoch").isEqualTo(6);
    }

    @Test
    void unfencedCommitsAreNeverRefusedAndRaiseNoEpoch()
    {
        assertThat(commit("billing", 1, CoordinatorEpochs.UNFENCED).status()).isEqualTo(STATUS_STORED);
        assertThat(commit("billing", 2, 1).status()).as("the first coordinator after unfenced commits")
            .isEqualTo(STATUS_STORED);
        assertThat(commit("billing", 6, 7).status()).isEqualTo(STATUS_STORED);
        assertThat(commit("billing", 4, CoordinatorEpochs.UNFENCED).status()).isEqualTo(STATUS_STORED);
        assertThat(committed("billing")).isEqualTo(4);
        assertThat(commit("billing", 5, 5).status()).as("after an unfenced commit, the epoch is still 7")
            .isEqualTo(STATUS_STALE_COORDINATOR);
    }

    @Test
    void eachConsumerGroupHasItsOwnEpoch()
    {
        assertThat(commit("billing", 6, 7).status()).isEqualTo(STATUS_STORED);
        assertThat(commit("audit", 2, 5).status()).isEqualTo(STATUS_STORED);
        assertThat(committed("audit")).isEqualTo(2);
    }

    @Test
    void anEntryWrittenBeforeCoordinatorsWereFencedIsUnfenced()
    {
        final ByteBuf old = Unpooled.buffer();
        old.writeByte(ClusterEntryDescriptor.VERSION);
        old.writeByte(ClusterEntryDescriptor.TYPE_COMMIT_OFFSET);
        Fields.writeString(old, "billing");
        old.writeLongLE(3);
        assertThat(ClusterEntryDescriptor.decodeCommitOffset(ClusterEntryDescriptor.toMessage(old).getContent()))
            .isEqualTo(new ClusterEntryDescriptor.CommitOffset("billing", 3, CoordinatorEpochs.UNFENCED));
    }

    @Test
    void theSnapshotKeepsTheEpochsAndARestoredGroupRefusesTheOlderCoordinator() throws Exception
    {
        commit("billing", 6, 7);
        commit("audit", 2, 3);
        final ByteBuf payload = PartitionSnapshot.encode(records.replicatedEnd(), records.windows(),
            records.replicatedCommits(), records.coordinatorEpochs(), subscriptions);

        final CommittedRecords restored = newRecords();
        final PartitionSnapshot.Restored state = PartitionSnapshot.decode(loaded(payload), restored.windows(),
            restored.coordinatorEpochs(), new ReplicatedSubscriptions(TOPIC, 0));
        assertThat(state.replicatedEnd()).isEqualTo(RECORDS);
        assertThat(state.groupOffsets()).containsEntry("billing", 6L).containsEntry("audit", 2L);
        assertThat(restored.coordinatorEpochs().byGroup()).containsEntry("billing", 7L).containsEntry("audit", 3L);
        assertThat(restored.coordinatorEpochs().admit("billing", 5)).isFalse();
        assertThat(restored.coordinatorEpochs().admit("audit", 3)).isTrue();
    }

    @Test
    void aSnapshotWrittenBeforeCoordinatorsWereFencedIsReadWithoutEpochs() throws Exception
    {
        final ByteBuf payload = Unpooled.buffer();
        payload.writeLongLE(RECORDS);
        records.windows().writeTo(payload);
        payload.writeIntLE(1);
        Fields.writeString(payload, "billing");
        payload.writeLongLE(4);
        subscriptions.writeTo(payload);

        final CommittedRecords restored = newRecords();
        restored.coordinatorEpochs().admit("billing", 9);
        final PartitionSnapshot.Restored state = PartitionSnapshot.decode(loaded(payload), restored.windows(),
            restored.coordinatorEpochs(), new ReplicatedSubscriptions(TOPIC, 0));
        assertThat(state.replicatedEnd()).isEqualTo(RECORDS);
        assertThat(state.groupOffsets()).containsExactlyEntriesOf(Map.of("billing", 4L));
        assertThat(restored.coordinatorEpochs().byGroup()).isEmpty();
    }

    @Test
    void aSnapshotOfALaterFormatIsRefusedNamingItsVersion()
    {
        final ByteBuf payload = Unpooled.buffer();
        payload.writeLongLE(-(PartitionSnapshot.VERSION + 1));
        payload.writeLongLE(RECORDS);
        assertThatThrownBy(() -> PartitionSnapshot.decode(loaded(payload), new ProducerWindows(),
            new CoordinatorEpochs(), new ReplicatedSubscriptions(TOPIC, 0)))
            .isInstanceOf(DamagedSnapshotException.class)
            .hasMessageContaining("version " + (PartitionSnapshot.VERSION + 1))
            .hasMessageContaining("upgrade this node");
    }

    @Test
    void aDeletionRemovesTheGroupsOffsetAndItsEpoch()
    {
        commit("billing", 6, 7);
        commit("audit", 2, 7);
        assertThat(delete("billing", 7).status()).isEqualTo(STATUS_STORED);
        assertThat(committed("billing")).isEqualTo(-1);
        assertThat(records.replicatedCommits()).containsOnlyKeys("audit");
        assertThat(records.coordinatorEpochs().byGroup()).containsOnlyKeys("audit");
        assertThat(commit("billing", 1, 5).status()).as("a coordinator of the group after its deletion")
            .isEqualTo(STATUS_STORED);
        assertThat(committed("audit")).isEqualTo(2);
    }

    @Test
    void aDeletionFromAnOlderCoordinatorIsRefusedAndTheOffsetStays()
    {
        commit("billing", 6, 7);
        assertThat(delete("billing", 5).status()).isEqualTo(STATUS_STALE_COORDINATOR);
        assertThat(committed("billing")).isEqualTo(6);
        assertThat(records.coordinatorEpochs().highest("billing")).isEqualTo(7);
    }

    @Test
    void aSnapshotTakenAfterAGroupWasDeletedRemovesItsOffsetFromANodeThatMissedTheDeletion() throws Exception
    {
        commit("billing", 6, 7);
        commit("audit", 2, 7);
        final ByteBuf takenAfterDeletion = PartitionSnapshot.encode(RECORDS, records.windows(), Map.of("audit", 2L),
            new CoordinatorEpochs(), subscriptions);
        final PartitionSnapshot.Restored afterDeletion = PartitionSnapshot.decode(loaded(takenAfterDeletion),
            records.windows(), records.coordinatorEpochs(), subscriptions);

        records.restore(afterDeletion.replicatedEnd(), afterDeletion.groupOffsets(),
            CompletableFuture.completedFuture(null));
        assertThat(commit("audit", 3, 7).status()).as("a commit applied after the snapshot").isEqualTo(STATUS_STORED);
        assertThat(committed("billing")).isEqualTo(-1);
        assertThat(committed("audit")).isEqualTo(3);
        assertThat(records.replicatedCommits()).containsOnlyKeys("audit");
    }

    private Reply commit(final String group, final long offset, final long coordinatorEpoch)
    {
        return apply(ClusterEntryDescriptor.commitOffset(group, offset, coordinatorEpoch));
    }

    private Reply delete(final String group, final long coordinatorEpoch)
    {
        return apply(ClusterEntryDescriptor.deleteGroupOffset(group, coordinatorEpoch));
    }

    private Reply apply(final Message entry)
    {
        return ClusterEntryDescriptor.decodeReply(applier.apply(entry.getContent()).join().getContent());
    }

    private long committed(final String group)
    {
        return streams.groups().committed(group, WHERE);
    }

    private CommittedRecords newRecords()
    {
        return new CommittedRecords(WHERE, streams.topics().topic(TOPIC).partition(0), streams.newProducer(),
            streams.groups(), dir.resolve("log"), new PartitionGroupExit(new BaseStateMachine(), null, WHERE));
    }

    private PartitionEntryApplier applier(final CommittedRecords committed, final ReplicatedSubscriptions queues)
    {
        return new PartitionEntryApplier(TOPIC, 0, committed, queues, new PartitionLeaderDuties(
            new BaseStateMachine(), WHERE, streams.topics().topic(TOPIC).partition(0), deadLetters));
    }

    private SnapshotFiles.Loaded loaded(final ByteBuf payload)
    {
        return new SnapshotFiles.Loaded(TermIndex.valueOf(1, 10), dir.resolve("snapshot.1_10"), payload);
    }
}
