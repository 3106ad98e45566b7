package io.spool.stream;

import io.spool.api.stream.InvalidGroupException;
import io.spool.api.stream.TopicPartition;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AssignorsTest
{
    private static TopicPartition tp(final String topic, final int partition)
    {
        return new TopicPartition(topic, partition);
    }

    private static Map<String, MemberSubscription> members(final Set<String> topics, final String... ids)
    {
        final Map<String, MemberSubscription> subscriptions = new HashMap<>();
        for (final String id : ids)
        {
            subscriptions.put(id, MemberSubscription.of(topics));
        }
        return subscriptions;
    }

    @Test
    void rangeGivesContiguousRangesWithExtrasFirst()
    {
        final Map<String, List<TopicPartition>> assignment = new RangeAssignor().assign(
            Map.of("t", 7), members(Set.of("t"), "c", "a", "b"));

        assertThat(assignment.get("a")).containsExactly(tp("t", 0), tp("t", 1), tp("t", 2));
        assertThat(assignment.get("b")).containsExactly(tp("t", 3), tp("t", 4));
        assertThat(assignment.get("c")).containsExactly(tp("t", 5), tp("t", 6));
    }

    @Test
    void rangeWorksPerTopicSoTheFirstMemberGetsEveryTopicsExtra()
    {
        final Map<String, List<TopicPartition>> assignment = new RangeAssignor().assign(
            Map.of("x", 3, "y", 3), members(Set.of("x", "y"), "a", "b"));

        assertThat(assignment.get("a")).containsExactly(tp("x", 0), tp("x", 1), tp("y", 0), tp("y", 1));
        assertThat(assignment.get("b")).containsExactly(tp("x", 2), tp("y", 2));
    }

    @Test
    void roundRobinDealsPartitionsAcrossTopics()
    {
        final Map<String, List<TopicPartition>> assignment = new RoundRobinAssignor().assign(
            Map.of("x", 3, "y", 3), members(Set.of("x", "y"), "a", "b"));

        assertThat(assignment.get("a")).containsExactly(tp("x", 0), tp("x", 2), tp("y", 1));
        assertThat(assignment.get("b")).containsExactly(tp("x", 1), tp("y", 0), tp("y", 2));
    }

    @Test
    void roundRobinSkipsMembersNotSubscribedToATopic()
    {
        final Map<String, MemberSubscription> subscriptions = new HashMap<>();
        subscriptions.put("a", MemberSubscription.of(Set.of("x")));
        subscriptions.put("b", MemberSubscription.of(Set.of("x", "y")));

        final Map<String, List<TopicPartition>> assignment = new RoundRobinAssignor().assign(
            Map.of("x", 2, "y", 2), subscriptions);

        assertThat(assignment.get("a")).containsExactly(tp("x", 0));
        assertThat(assignment.get("b")).containsExactly(tp("x", 1), tp("y", 0), tp("y", 1));
    }

    @Test
    void everyMemberGetsAnEntryEvenWithNothingToOwn()
    {
        for (final String name : List.of("range", "roundrobin", "sticky"))
        {
            final Map<String, List<TopicPartition>> assignment = PartitionAssignor.named(name).assign(
                Map.of("t", 1), members(Set.of("t"), "a", "b", "c"));
            assertThat(assignment).as(name).containsOnlyKeys("a", "b", "c");
            assertThat(assignment.values().stream().mapToInt(List::size).sum()).as(name).isEqualTo(1);
        }
    }

    @Test
    void topicsMissingFromMetadataAreSkipped()
    {
        final Map<String, List<TopicPartition>> assignment = new StickyAssignor().assign(
            Map.of("t", 2), members(Set.of("t", "gone"), "a"));

        assertThat(assignment.get("a")).containsExactlyInAnyOrder(tp("t", 0), tp("t", 1));
    }

    @Test
    void unknownAssignorNameIsRejected()
    {
        assertThatThrownBy(() -> PartitionAssignor.named("fancy"))
            .isInstanceOf(InvalidGroupException.class).hasMessageContaining("unknown assignor \"fancy\"");
    }

    @Test
    void stickyMovesOnlyWhatANewMemberNeeds()
    {
        final StickyAssignor sticky = new StickyAssignor();
        final Map<String, List<TopicPartition>> before = sticky.assign(
            Map.of("t", 12), members(Set.of("t"), "a", "b", "c"));

        final Map<String, MemberSubscription> withD = new HashMap<>();
        before.forEach((member, owned) -> withD.put(member, new MemberSubscription(Set.of("t"), owned)));
        withD.put("d", MemberSubscription.of(Set.of("t")));
        final Map<String, List<TopicPartition>> after = sticky.assign(Map.of("t", 12), withD);

        assertThat(after.get("d")).hasSize(3);
        for (final String member : List.of("a", "b", "c"))
        {
            assertThat(before.get(member)).containsAll(after.get(member));
            assertThat(after.get(member)).hasSize(3);
        }
    }

    @Test
    void stickyHandsALeaversPartitionsToTheOthersAndKeepsTheirs()
    {
        final StickyAssignor sticky = new StickyAssignor();
        final Map<String, List<TopicPartition>> before = sticky.assign(
            Map.of("t", 9), members(Set.of("t"), "a", "b", "c"));

        final Map<String, MemberSubscription> withoutB = new HashMap<>();
        withoutB.put("a", new MemberSubscription(Set.of("t"), before.get("a")));
        withoutB.put("c", new MemberSubscription(Set.of("t"), before.get("c")));
        final Map<String, List<TopicPartition>> after = sticky.assign(Map.of("t", 9), withoutB);

        assertThat(after.get("a")).containsAll(before.get("a"));
        assertThat(after.get("c")).containsAll(before.get("c"));
        assertThat(after.get("a").size() + after.get("c").size()).isEqualTo(9);
        assertThat(Math.abs(after.get("a").size() - after.get("c").size())).isLessThanOrEqualTo(1);
    }

    @Test
    void stickyResolvesTwoMembersClaimingOnePartition()
    {
        final Map<String, MemberSubscription> subscriptions = new HashMap<>();
        subscriptions.put("a", new MemberSubscription(Set.of("t"), List.of(tp("t", 0))));
        subscriptions.put("b", new MemberSubscription(Set.of("t"), List.of(tp("t", 0))));

        final Map<String, List<TopicPartition>> assignment = new StickyAssignor().assign(Map.of("t", 2), subscriptions);

        assertThat(assignment.get("a")).containsExactly(tp("t", 0));
        assertThat(assignment.get("b")).containsExactly(tp("t", 1));
    }

    @Property(tries = 100)
    void everyAssignorCoversEachPartitionOnceAndBalances(
        @ForAll @IntRange(min = 1, max = 8) final int memberCount,
        @ForAll @IntRange(min = 0, max = 30) final int partitions,
        @ForAll @IntRange(min = 0, max = 2) final int assignorIndex)
    {
        final String[] ids = new String[memberCount];
        for (int i = 0; i < memberCount; i++)
        {
            ids[i] = "m" + i;
        }
        final PartitionAssignor assignor = PartitionAssignor.named(List.of("range", "roundrobin", "sticky")
            .get(assignorIndex));
        final Map<String, List<TopicPartition>> assignment = assignor.assign(
            Map.of("t", partitions), members(Set.of("t"), ids));

        assertCoversOnceAndBalanced(assignment, partitions);
    }

    @Property(tries = 100)
    void stickyKeepsBalanceAndMovesAtMostTheSurplusAfterMembershipChanges(
        @ForAll @IntRange(min = 1, max = 6) final int before,
        @ForAll @IntRange(min = 1, max = 6) final int after,
        @ForAll @IntRange(min = 0, max = 30) final int partitions)
    {
        final StickyAssignor sticky = new StickyAssignor();
        final Map<String, MemberSubscription> first = new HashMap<>();
        for (int i = 0; i < before; i++)
        {
            first.put("m" + i, MemberSubscription.of(Set.of("t")));
        }
        final Map<String, List<TopicPartition>> initial = sticky.assign(Map.of("t", partitions), first);

        final Map<String, MemberSubscription> second = new HashMap<>();
        for (int i = 0; i < after; i++)
        {
            final String id = "m" + i;
            second.put(id, new MemberSubscription(Set.of("t"), initial.getOrDefault(id, List.of())));
        }
        final Map<String, List<TopicPartition>> next = sticky.assign(Map.of("t", partitions), second);

        assertCoversOnceAndBalanced(next, partitions);
        final int ceiling = (partitions + after - 1) / after;
        int kept = 0;
        int keepable = 0;
        for (final String id : second.keySet())
        {
            final List<TopicPartition> owned = initial.getOrDefault(id, List.of());
            keepable += Math.min(owned.size(), ceiling);
            kept += (int)owned.stream().filter(next.get(id)::contains).count();
        }
        final int moved = keepable - kept;
        assertThat(moved).as("partitions taken from members that could have kept them").isLessThanOrEqualTo(after);
    }

    private static void assertCoversOnceAndBalanced(
        final Map<String, List<TopicPartition>> assignment, final int partitions)
    {
        final List<TopicPartition> all = new ArrayList<>();
        assignment.values().forEach(all::addAll);
        assertThat(new HashSet<>(all)).hasSize(all.size()).hasSize(partitions);
        final int min = assignment.values().stream().mapToInt(List::size).min().orElse(0);
        final int max = assignment.values().stream().mapToInt(List::size).max().orElse(0);
        assertThat(max - min).isLessThanOrEqualTo(1);
    }
}
