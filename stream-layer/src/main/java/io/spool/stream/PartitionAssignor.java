package io.spool.stream;

import io.spool.api.stream.InvalidGroupException;
import io.spool.api.stream.TopicPartition;

import java.util.List;
import java.util.Map;

/**
 * Shares the partitions of the subscribed topics among a group's members. Implementations are deterministic:
 * the same input gives the same assignment on any node. Implementations are stateless and thread-safe.
 */
public interface PartitionAssignor
{
    /** The name stored with a group, for example {@code "range"}. */
    String name();

    /**
     * @param partitionsPerTopic partition count of every topic some member subscribes to; topics missing here are
     *                           skipped (they were deleted or never existed)
     * @param subscriptions      member id to subscription
     * @return member id to the partitions it owns, with an entry (possibly empty) for every member
     */
    Map<String, List<TopicPartition>> assign(
        Map<String, Integer> partitionsPerTopic, Map<String, MemberSubscription> subscriptions);

    /** The assignor registered under {@code name}: range, roundrobin or sticky. */
    static PartitionAssignor named(final String name)
    {
        return switch (name)
        {
            case RangeAssignor.NAME -> new RangeAssignor();
            case RoundRobinAssignor.NAME -> new RoundRobinAssignor();
            case StickyAssignor.NAME -> new StickyAssignor();
            default -> throw new InvalidGroupException(
                "unknown assignor \"" + name + "\"; expected one of range, roundrobin, sticky");
        };
    }
}
