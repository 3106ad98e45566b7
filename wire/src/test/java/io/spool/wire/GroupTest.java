package io.spool.wire;

import io.spool.api.stream.CommitFailedException;
import io.spool.api.stream.InvalidGroupException;
import io.spool.api.InvalidRequestException;
import io.spool.api.stream.MemberAssignment;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicPartition;
import io.spool.api.stream.UnknownMemberException;
import io.spool.wire.client.RemoteGroups;
import io.spool.wire.client.SpoolClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GroupTest
{
    @TempDir
    Path dir;
    private WireFixture fixture;

    @BeforeEach
    void start()
    {
        fixture = new WireFixture(dir);
        fixture.connect().admin().createTopic("clicks", WireFixture.topic(4));
    }

    @AfterEach
    void stop()
    {
        fixture.close();
    }

    @Test
    void membersShareThePartitionsCommitTheirOwnAndLeaveWithTheirConnection()
    {
        final RemoteGroups first = fixture.connect().groups();
        final SpoolClient secondClient = fixture.connect();
        final RemoteGroups second = secondClient.groups();
        final String a = first.join("readers", Set.of("clicks"), "range", 60_000);
        final String b = second.join("readers", Set.of("clicks"), "range", 60_000);

        final MemberAssignment ofA = first.heartbeat("readers", a, -1);
        final MemberAssignment ofB = second.heartbeat("readers", b, -1);
        final Set<TopicPartition> all = new HashSet<>(ofA.partitions());
        all.addAll(ofB.partitions());
        assertThat(all).hasSize(4);
        assertThat(ofA.partitions()).doesNotContainAnyElementsOf(ofB.partitions());
        assertThat(first.heartbeat("readers", a, ofA.version())).as("unchanged").isNull();

        final TopicPartition owned = ofA.partitions().iterator().next();
        final TopicPartition foreign = ofB.partitions().iterator().next();
        publish(owned, 42);
        first.commit("readers", a, Map.of(owned, 42L));
        assertThat(first.committed("readers")).containsEntry(owned, 42L);
        assertThat(fixture.spool().streams().groups().committed("readers", owned)).isEqualTo(42L);
        assertThatThrownBy(() -> first.commit("readers", a, Map.of(foreign, 7L)))
            .isInstanceOf(CommitFailedException.class);

        secondClient.close();
        assertThat(WireFixture.await(() ->
        {
            final MemberAssignment now = first.heartbeat("readers", a, -1);
            return now.partitions().size() == 4;
        }, Duration.ofSeconds(10))).as("the closed connection's member left at once").isTrue();
        assertThatThrownBy(() -> first.heartbeat("readers", b, -1)).isInstanceOf(UnknownMemberException.class);

        first.leave("readers", a);
        assertThatThrownBy(() -> first.heartbeat("readers", a, -1)).isInstanceOf(UnknownMemberException.class);
    }

    @Test
    void standaloneCommitsAndBadJoinsAnswerLikeTheEmbeddedEngine()
    {
        final RemoteGroups groups = fixture.connect().groups();
        final TopicPartition partition = new TopicPartition("clicks", 3);
        publish(partition, 9);
        groups.commitStandalone("batch-job", Map.of(partition, 9L));
        assertThat(groups.committed("batch-job")).containsExactly(Map.entry(partition, 9L));
        assertThatThrownBy(() -> groups.commitStandalone("batch-job", Map.of(partition, 1_000_000_000L)))
            .isInstanceOf(InvalidRequestException.class).hasMessageContaining("clicks-3 ends at 9");
        assertThatThrownBy(() -> groups.join("readers", Set.of(), "range", 1_000))
            .isInstanceOf(InvalidGroupException.class);
        assertThatThrownBy(() -> groups.join("readers", Set.of("clicks"), "range", 0))
            .isInstanceOf(InvalidGroupException.class);
    }

    /** Stores {@code count} records in {@code partition}, so commits up to that offset are within its log. */
    private void publish(final TopicPartition partition, final int count)
    {
        final io.spool.stream.StreamProducer producer = fixture.spool().streams().newProducer();
        for (int i = 0; i < count; i++)
        {
            producer.send(ProducerRecord.toPartition(partition.topic(), partition.partition(), null,
                new byte[]{(byte)i})).join();
        }
    }
}
