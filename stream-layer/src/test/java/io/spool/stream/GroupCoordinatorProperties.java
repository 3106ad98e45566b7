package io.spool.stream;

import io.spool.api.stream.GroupDescription;
import io.spool.api.stream.MemberAssignment;
import io.spool.api.stream.TopicPartition;
import io.spool.api.stream.UnknownMemberException;
import io.spool.stream.internal.group.CommittedOffsetStore;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import org.agrona.concurrent.CachedEpochClock;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random joins, leaves, clock jumps (which expire whoever does not heartbeat) and syncs of members that behave
 * like consumers (give up what they are told to, then take what they are given): no partition is ever read by
 * two live members, and after three rounds of syncs (rejoin, give up, take) the partitions are all owned and
 * balanced.
 */
class GroupCoordinatorProperties
{
    private static final long SESSION = 1_000;
    private static final int PARTITIONS = 7;

    /** 0-3 sync a member, 4 join, 5 leave, 6 advance the clock past a session (silent members expire). */
    record Action(int kind, int member)
    {
    }

    @Provide
    Arbitrary<Action> actions()
    {
        return Combinators.combine(Arbitraries.integers().between(0, 6), Arbitraries.integers().between(0, 9))
            .as(Action::new);
    }

    @Property(tries = 100)
    void noPartitionHasTwoReadersAndTheGroupSettlesBalanced(
        @ForAll @Size(max = 80) final List<@From("actions") Action> actions,
        @ForAll("assignors") final String assignor) throws IOException
    {
        final Path dir = Files.createTempDirectory("group-property");
        final CachedEpochClock clock = new CachedEpochClock();
        try (CommittedOffsetStore offsets = CommittedOffsetStore.open(dir.resolve("offsets.log"), false))
        {
            final GroupCoordinator coordinator = new GroupCoordinator(clock, offsets, t -> PARTITIONS, p -> Long.MAX_VALUE);
            final Map<String, Set<TopicPartition>> reading = new HashMap<>();
            final List<String> members = new ArrayList<>();
            for (final Action action : actions)
            {
                if (action.kind() <= 3 && !members.isEmpty())
                {
                    final int index = action.member() % members.size();
                    members.set(index, sync(coordinator, members.get(index), reading, assignor));
                }
                else if (action.kind() == 4)
                {
                    final String member = coordinator.join("g", Set.of("t"), assignor, SESSION);
                    members.add(member);
                    reading.put(member, new HashSet<>());
                }
                else if (action.kind() == 5 && !members.isEmpty())
                {
                    final String member = members.remove(action.member() % members.size());
                    reading.remove(member);
                    coordinator.leave("g", member);
                }
                else if (action.kind() == 6)
                {
                    clock.advance(SESSION + 1);
                }
                assertNoPartitionReadTwice(coordinator, reading);
            }
            for (int round = 0; round < 3; round++)
            {
                for (int i = 0; i < members.size(); i++)
                {
                    members.set(i, sync(coordinator, members.get(i), reading, assignor));
                }
            }
            assertNoPartitionReadTwice(coordinator, reading);
            final List<Integer> loads = new ArrayList<>();
            reading.values().forEach(owned -> loads.add(owned.size()));
            if (!loads.isEmpty())
            {
                assertThat(loads.stream().mapToInt(Integer::intValue).sum()).isEqualTo(PARTITIONS);
                assertThat(loads.stream().mapToInt(Integer::intValue).max().getAsInt() -
                    loads.stream().mapToInt(Integer::intValue).min().getAsInt()).isLessThanOrEqualTo(1);
            }
        }
        finally
        {
            try (var paths = Files.walk(dir))
            {
                paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    @Provide
    Arbitrary<String> assignors()
    {
        return Arbitraries.of(RangeAssignor.NAME, RoundRobinAssignor.NAME, StickyAssignor.NAME);
    }

    /**
     * What a consumer does on a poll; an expired member forgets everything and joins again.
     *
     * @return the member's id after the sync, new if it had to join again
     */
    private static String sync(final GroupCoordinator coordinator, final String member,
        final Map<String, Set<TopicPartition>> reading, final String assignor)
    {
        final Set<TopicPartition> owned = reading.get(member);
        final MemberAssignment assignment;
        try
        {
            assignment = coordinator.heartbeat("g", member);
        }
        catch (final UnknownMemberException ex)
        {
            reading.remove(member);
            final String rejoined = coordinator.join("g", Set.of("t"), assignor, SESSION);
            reading.put(rejoined, new HashSet<>());
            return rejoined;
        }
        final Set<TopicPartition> revoked = new HashSet<>(owned);
        revoked.removeAll(assignment.partitions());
        owned.removeAll(revoked);
        coordinator.release("g", member, revoked);
        owned.addAll(assignment.partitions());
        return member;
    }

    /**
     * Among the members the group still has: a member whose session expired may read on until its next poll
     * tells it so (a zombie, as in Kafka), but its commits are refused, so only live members count.
     */
    private static void assertNoPartitionReadTwice(
        final GroupCoordinator coordinator, final Map<String, Set<TopicPartition>> reading)
    {
        final GroupDescription group = coordinator.describe("g");
        final Set<String> live = group == null ? Set.of() : group.members();
        final Set<TopicPartition> seen = new HashSet<>();
        for (final Map.Entry<String, Set<TopicPartition>> member : reading.entrySet())
        {
            if (!live.contains(member.getKey()))
            {
                continue;
            }
            for (final TopicPartition partition : member.getValue())
            {
                assertThat(seen.add(partition)).as("%s read by two members", partition).isTrue();
            }
        }
    }
}
