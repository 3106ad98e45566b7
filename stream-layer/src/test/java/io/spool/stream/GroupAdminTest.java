package io.spool.stream;

import io.spool.api.stream.GroupReport;
import io.spool.api.stream.InvalidGroupException;
import io.spool.api.InvalidRequestException;
import io.spool.api.stream.OffsetSpec;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicPartition;
import io.spool.api.stream.UnknownGroupException;
import io.spool.api.stream.UnknownPartitionException;
import io.spool.api.stream.UnknownTopicException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.spool.stream.EngineFixture.bytes;
import static io.spool.stream.EngineFixture.topic;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** An operator's view of consumer groups: list, describe with lag, reset offsets (refused while members live), delete. */
class GroupAdminTest
{
    private static final long SESSION = 10_000;
    private static final TopicPartition P0 = new TopicPartition("orders", 0);
    private static final TopicPartition P1 = new TopicPartition("orders", 1);

    @TempDir
    Path dir;
    EngineFixture fixture;
    StreamEngine engine;
    long secondBatchTime;

    @BeforeEach
    void open()
    {
        fixture = new EngineFixture(dir);
        engine = fixture.open();
        engine.createTopic("orders", topic(2));
        publish(3);
        fixture.clock.advance(60_000);
        secondBatchTime = fixture.clock.time();
        publish(3);
    }

    @AfterEach
    void close()
    {
        engine.close();
    }

    private void publish(final int perPartition)
    {
        final StreamProducer producer = engine.newProducer();
        for (int p = 0; p < 2; p++)
        {
            for (int i = 0; i < perPartition; i++)
            {
                producer.send(ProducerRecord.toPartition("orders", p, null, bytes("r" + i))).join();
            }
        }
    }

    @Test
    void describeGivesTheMembersAndPerPartitionTheCommittedOffsetTheLogsEndsAndTheLag()
    {
        engine.groups().commitStandalone("billing", Map.of(P0, 4L));
        final String member = engine.groups().join("billing", Set.of("orders"), "range", SESSION);

        final GroupReport report = engine.describeGroup("billing");

        assertThat(report.active()).isTrue();
        assertThat(report.membership().members()).containsExactly(member);
        assertThat(report.membership().targetAssignment().get(member)).containsExactlyInAnyOrder(P0, P1);
        assertThat(report.partitions()).containsExactly(
            new GroupReport.PartitionPosition(P0, 4, 0, 6, 2),
            new GroupReport.PartitionPosition(P1, GroupReport.PartitionPosition.NO_OFFSET, 0, 6, 6));
        assertThat(engine.lag("billing")).isEqualTo(Map.of(P0, 2L, P1, 6L));
        assertThat(engine.listGroups()).containsExactly("billing");
    }

    @Test
    void aGroupWithNeitherMembersNorOffsetsIsUnknownAndABadIdIsInvalid()
    {
        assertThatThrownBy(() -> engine.describeGroup("nobody")).isInstanceOf(UnknownGroupException.class)
            .hasMessageContaining("\"nobody\"");
        assertThatThrownBy(() -> engine.deleteGroup("nobody")).isInstanceOf(UnknownGroupException.class);
        assertThatThrownBy(() -> engine.describeGroup("")).isInstanceOf(InvalidGroupException.class);
        assertThat(engine.lag("nobody")).isEmpty();
    }

    @Test
    void resetsGoToTheEarliestTheLatestAnOffsetKeptWithinTheLogOrTheFirstRecordOfATime()
    {
        assertThat(engine.resetOffsets("billing", "orders", List.of(), OffsetSpec.latest()))
            .isEqualTo(Map.of(P0, 6L, P1, 6L));
        assertThat(engine.groups().committedOffsets("billing")).isEqualTo(Map.of(P0, 6L, P1, 6L));

        assertThat(engine.resetOffsets("billing", "orders", List.of(1), OffsetSpec.earliest()))
            .isEqualTo(Map.of(P1, 0L));
        assertThat(engine.groups().committedOffsets("billing")).isEqualTo(Map.of(P0, 6L, P1, 0L));

        assertThat(engine.resetOffsets("billing", "orders", List.of(0), OffsetSpec.offset(2)))
            .isEqualTo(Map.of(P0, 2L));
        assertThat(engine.resetOffsets("billing", "orders", List.of(0), OffsetSpec.offset(99)))
            .isEqualTo(Map.of(P0, 6L));

        assertThat(engine.resetOffsets("billing", "orders", List.of(), OffsetSpec.timestamp(secondBatchTime)))
            .isEqualTo(Map.of(P0, 3L, P1, 3L));
        assertThat(engine.resetOffsets("billing", "orders", List.of(), OffsetSpec.timestamp(secondBatchTime + 1)))
            .isEqualTo(Map.of(P0, 6L, P1, 6L));
        assertThat(engine.resetOffsets("billing", "orders", List.of(), OffsetSpec.timestamp(0)))
            .isEqualTo(Map.of(P0, 0L, P1, 0L));
    }

    @Test
    void aResetIsRefusedWhileTheGroupHasLiveMembersAndCommitsNothing()
    {
        engine.groups().commitStandalone("billing", Map.of(P0, 1L));
        final String member = engine.groups().join("billing", Set.of("orders"), "range", SESSION);

        assertThatThrownBy(() -> engine.resetOffsets("billing", "orders", List.of(), OffsetSpec.latest()))
            .isInstanceOf(InvalidGroupException.class).hasMessageContaining("live members [" + member + "]")
            .hasMessageContaining("stop them");
        assertThat(engine.groups().committedOffsets("billing")).isEqualTo(Map.of(P0, 1L));

        engine.groups().leave("billing", member);
        engine.resetOffsets("billing", "orders", List.of(), OffsetSpec.latest());
        assertThat(engine.groups().committedOffsets("billing")).isEqualTo(Map.of(P0, 6L, P1, 6L));
    }

    @Test
    void aMemberWhoseSessionEndedNoLongerBlocksAReset()
    {
        engine.groups().join("billing", Set.of("orders"), "range", SESSION);
        fixture.clock.advance(SESSION + 1);

        engine.resetOffsets("billing", "orders", List.of(0), OffsetSpec.offset(5));

        assertThat(engine.groups().committedOffsets("billing")).isEqualTo(Map.of(P0, 5L));
    }

    @Test
    void aPlannedResetCommitsNothingAndBadTopicsPartitionsAndSpecsAreRefused()
    {
        assertThat(engine.planOffsetReset("billing", "orders", List.of(), OffsetSpec.latest()))
            .isEqualTo(Map.of(P0, 6L, P1, 6L));
        assertThat(engine.groups().committedOffsets("billing")).isEmpty();

        assertThatThrownBy(() -> engine.resetOffsets("billing", "nope", List.of(), OffsetSpec.latest()))
            .isInstanceOf(UnknownTopicException.class);
        assertThatThrownBy(() -> engine.resetOffsets("billing", "orders", List.of(2), OffsetSpec.latest()))
            .isInstanceOf(UnknownPartitionException.class).hasMessageContaining("2");
        assertThatThrownBy(() -> OffsetSpec.offset(-1)).isInstanceOf(InvalidRequestException.class)
            .hasMessageContaining("offset must be >= 0");
        assertThat(engine.groups().committedOffsets("billing")).isEmpty();
    }

    @Test
    void deleteForgetsTheOffsetsOfAGroupWithoutMembersAndIsRefusedWhileItHasSome()
    {
        engine.groups().commitStandalone("billing", Map.of(P0, 1L));
        final String member = engine.groups().join("billing", Set.of("orders"), "range", SESSION);
        assertThatThrownBy(() -> engine.deleteGroup("billing")).isInstanceOf(InvalidGroupException.class);

        engine.groups().leave("billing", member);
        engine.deleteGroup("billing");

        assertThat(engine.listGroups()).isEmpty();
        assertThatThrownBy(() -> engine.describeGroup("billing")).isInstanceOf(UnknownGroupException.class);
    }
}
