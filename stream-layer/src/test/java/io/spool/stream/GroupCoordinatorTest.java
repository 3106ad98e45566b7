package io.spool.stream;

import io.spool.api.stream.CommitFailedException;
import io.spool.api.stream.GroupDescription;
import io.spool.api.stream.InvalidGroupException;
import io.spool.api.InvalidRequestException;
import io.spool.api.stream.InvalidTopicException;
import io.spool.api.stream.MemberAssignment;
import io.spool.api.stream.TopicPartition;
import io.spool.api.stream.UnknownMemberException;
import io.spool.stream.internal.group.CommittedOffsetStore;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GroupCoordinatorTest
{
    private static final long SESSION = 10_000;
    /** Where every partition's log ends, for the commits checked against it. */
    private static final long LOG_END = 600;

    @TempDir
    Path dir;

    private final CachedEpochClock clock = new CachedEpochClock();
    private final Map<String, Integer> topics = new HashMap<>(Map.of("orders", 6, "audit", 2));
    private CommittedOffsetStore offsets;
    private GroupCoordinator coordinator;

    @BeforeEach
    void open()
    {
        clock.update(1_000_000);
        offsets = CommittedOffsetStore.open(dir.resolve("offsets.log"), false);
        coordinator = new GroupCoordinator(clock, offsets, topic -> topics.getOrDefault(topic, 0), partition -> LOG_END);
    }

    @AfterEach
    void close()
    {
        offsets.close();
    }

    private String join(final String assignor)
    {
        return coordinator.join("g", Set.of("orders"), assignor, SESSION);
    }

    @Test
    void aLoneMemberGetsEveryPartition()
    {
        final String member = join("range");

        final MemberAssignment assignment = coordinator.heartbeat("g", member);

        assertThat(assignment.partitions()).hasSize(6);
        assertThat(assignment.generation()).isEqualTo(1);
    }

    @Test
    void aJoinerGetsPartitionsOnlyAfterTheOwnerReleasesThem()
    {
        final String first = join("range");
        final Set<TopicPartition> all = coordinator.heartbeat("g", first).partitions();
        final String second = join("range");

        assertThat(coordinator.heartbeat("g", second).partitions()).isEmpty();
        final Set<TopicPartition> kept = coordinator.heartbeat("g", first).partitions();
        assertThat(kept).hasSize(3);
        final Set<TopicPartition> revoked = new HashSet<>(all);
        revoked.removeAll(kept);

        coordinator.commit("g", first, Map.of(revoked.iterator().next(), 42L));
        coordinator.release("g", first, revoked);

        assertThat(coordinator.heartbeat("g", second).partitions()).containsExactlyInAnyOrderElementsOf(revoked);
        assertThat(coordinator.committed("g", revoked.iterator().next())).isEqualTo(42L);
    }

    @Test
    void aLeaversPartitionsGoToTheOthersAtOnce()
    {
        final String first = join("roundrobin");
        final String second = join("roundrobin");
        coordinator.heartbeat("g", first);
        coordinator.heartbeat("g", second);

        coordinator.leave("g", second);

        assertThat(coordinator.heartbeat("g", first).partitions()).hasSize(6);
        assertThat(coordinator.describe("g").members()).containsExactly(first);
    }

    @Test
    void aMemberThatStopsHeartbeatingLosesItsPartitions()
    {
        final String alive = join("sticky");
        final String silent = join("sticky");
        coordinator.heartbeat("g", alive);
        coordinator.heartbeat("g", silent);

        clock.advance(SESSION / 2);
        assertThat(coordinator.heartbeat("g", alive).partitions()).hasSize(3);
        clock.advance(SESSION / 2 + 1);

        assertThat(coordinator.heartbeat("g", alive).partitions()).hasSize(6);
        assertThatThrownBy(() -> coordinator.heartbeat("g", silent))
            .isInstanceOf(UnknownMemberException.class).hasMessageContaining("must join again");
    }

    @Test
    void expireSessionsRemovesDeadMembersWithoutAnyGroupCall()
    {
        join("range");
        join("range");
        clock.advance(SESSION + 1);

        assertThat(coordinator.expireSessions()).isEqualTo(2);
        assertThat(coordinator.describe("g")).isNull();
    }

    @Test
    void commitForAPartitionNotOwnedIsRefused()
    {
        final String first = join("range");
        final String second = join("range");
        coordinator.heartbeat("g", first);
        coordinator.heartbeat("g", second);
        final TopicPartition ownedByFirst = new TopicPartition("orders", 0);

        assertThatThrownBy(() -> coordinator.commit("g", second, Map.of(ownedByFirst, 5L)))
            .isInstanceOf(CommitFailedException.class).hasMessageContaining("does not own orders-0");
        assertThat(coordinator.committed("g", ownedByFirst)).isEqualTo(CommittedOffsetStore.NO_OFFSET);
    }

    @Test
    void commitFromAnExpiredMemberIsRefused()
    {
        final String member = join("range");
        coordinator.heartbeat("g", member);
        clock.advance(SESSION + 1);

        assertThatThrownBy(() -> coordinator.commit("g", member, Map.of(new TopicPartition("orders", 0), 1L)))
            .isInstanceOf(UnknownMemberException.class);
    }

    @Test
    void standaloneCommitIsRefusedWhileTheGroupHasMembers()
    {
        coordinator.commitStandalone("g", Map.of(new TopicPartition("orders", 1), 7L));
        assertThat(coordinator.committedOffsets("g")).containsEntry(new TopicPartition("orders", 1), 7L);

        join("range");
        assertThatThrownBy(() -> coordinator.commitStandalone("g", Map.of(new TopicPartition("orders", 1), 8L)))
            .isInstanceOf(CommitFailedException.class).hasMessageContaining("active members");
    }

    @Test
    void aCommitAboveTheLogEndIsRefused()
    {
        final TopicPartition partition = new TopicPartition("orders", 1);
        assertThatThrownBy(() -> coordinator.commitStandalone("g", Map.of(partition, 1_000_000_000L)))
            .isInstanceOf(InvalidRequestException.class)
            .hasMessageContaining("1000000000").hasMessageContaining("orders-1 ends at " + LOG_END);
        assertThat(coordinator.committedOffsets("g")).isEmpty();

        coordinator.commitStandalone("g", Map.of(partition, LOG_END));
        assertThat(coordinator.committedOffsets("g")).containsEntry(partition, LOG_END);

        final String member = join("range");
        final TopicPartition owned = coordinator.heartbeat("g", member).partitions().iterator().next();
        assertThatThrownBy(() -> coordinator.commit("g", member, Map.of(owned, LOG_END + 1)))
            .isInstanceOf(InvalidRequestException.class).hasMessageContaining("ends at " + LOG_END);
    }

    @Test
    void everyRebalanceStartsANewGeneration()
    {
        final String first = join("range");
        join("range");
        assertThat(coordinator.describe("g").generation()).isEqualTo(2);
        coordinator.leave("g", first);
        assertThat(coordinator.describe("g").generation()).isEqualTo(3);
    }

    @Test
    void newTopicPartitionsAreAssignedAfterTopicsChanged()
    {
        final String member = coordinator.join("g", Set.of("orders", "later"), "range", SESSION);
        assertThat(coordinator.heartbeat("g", member).partitions()).hasSize(6);

        topics.put("later", 3);
        coordinator.topicsChanged();
        assertThat(coordinator.heartbeat("g", member).partitions()).hasSize(9);

        topics.remove("orders");
        coordinator.topicsChanged();
        assertThat(coordinator.heartbeat("g", member).partitions())
            .containsExactlyInAnyOrder(new TopicPartition("later", 0), new TopicPartition("later", 1),
                new TopicPartition("later", 2));
    }

    @Test
    void describeShowsTargetAssignmentAndSubscriptions()
    {
        final String first = join("range");
        final String second = coordinator.join("g", Set.of("orders", "audit"), "range", SESSION);

        final GroupDescription description = coordinator.describe("g");

        assertThat(description.assignor()).isEqualTo("range");
        assertThat(description.subscriptions()).containsEntry(second, Set.of("orders", "audit"));
        assertThat(description.targetAssignment().get(first)).hasSize(3);
        assertThat(description.targetAssignment().get(second)).hasSize(5);
        assertThat(coordinator.groupIds()).containsExactly("g");
    }

    @Test
    void badJoinsAreRejectedWithTheReason()
    {
        join("range");
        assertThatThrownBy(() -> join("sticky"))
            .isInstanceOf(InvalidGroupException.class).hasMessageContaining("uses assignor range");
        assertThatThrownBy(() -> coordinator.join("g", Set.of(), "range", SESSION))
            .isInstanceOf(InvalidGroupException.class).hasMessageContaining("must subscribe to a topic");
        assertThatThrownBy(() -> coordinator.join("g", Set.of("orders"), "range", 0))
            .isInstanceOf(InvalidGroupException.class).hasMessageContaining("session timeout must be positive");
        assertThatThrownBy(() -> coordinator.join("bad group", Set.of("orders"), "range", SESSION))
            .isInstanceOf(InvalidGroupException.class);
        assertThatThrownBy(() -> coordinator.join("g", Set.of("bad/topic"), "range", SESSION))
            .isInstanceOf(InvalidTopicException.class);
    }

    @Test
    void heartbeatForAnUnknownGroupNamesTheMember()
    {
        assertThatThrownBy(() -> coordinator.heartbeat("nobody", "m-1"))
            .isInstanceOf(UnknownMemberException.class).hasMessageContaining("member m-1 is not in group \"nobody\"");
    }

    @Test
    void membersJoiningOnManyThreadsEndBalanced() throws InterruptedException
    {
        final List<Thread> threads = new ArrayList<>();
        final Set<String> members = ConcurrentHashMap.newKeySet();
        for (int i = 0; i < 6; i++)
        {
            final Thread thread = new Thread(() -> members.add(join("sticky")));
            threads.add(thread);
            thread.start();
        }
        for (final Thread thread : threads)
        {
            thread.join();
        }

        final Set<TopicPartition> seen = new HashSet<>();
        for (final String member : members)
        {
            final Set<TopicPartition> owned = coordinator.heartbeat("g", member).partitions();
            assertThat(owned).hasSize(1);
            seen.addAll(owned);
        }
        assertThat(seen).hasSize(6);
    }

    @Test
    void heartbeatWithTheKnownVersionReturnsNothingUntilTheViewChanges()
    {
        final String first = join("range");
        final MemberAssignment initial = coordinator.heartbeat("g", first);

        assertThat(coordinator.heartbeat("g", first, initial.version())).isNull();
        final String second = join("range");
        final MemberAssignment shrunk = coordinator.heartbeat("g", first, initial.version());
        assertThat(shrunk.partitions()).hasSize(3);

        final Set<TopicPartition> revoked = new HashSet<>(initial.partitions());
        revoked.removeAll(shrunk.partitions());
        final MemberAssignment waiting = coordinator.heartbeat("g", second);
        assertThat(waiting.partitions()).isEmpty();
        coordinator.release("g", first, revoked);
        assertThat(coordinator.heartbeat("g", second, waiting.version()).partitions())
            .containsExactlyInAnyOrderElementsOf(revoked);
    }

    @Test
    void aGroupIsDeletedOnlyOnceItsMembersAreGone()
    {
        coordinator.commitStandalone("g", Map.of(new TopicPartition("orders", 0), 3L));
        final String member = join("range");

        assertThatThrownBy(() -> coordinator.deleteGroup("g"))
            .isInstanceOf(InvalidGroupException.class).hasMessageContaining("has live members [" + member + "]");
        coordinator.leave("g", member);
        coordinator.deleteGroup("g");

        assertThat(coordinator.committedOffsets("g")).isEmpty();
        assertThat(coordinator.groupIds()).isEmpty();
    }
}
