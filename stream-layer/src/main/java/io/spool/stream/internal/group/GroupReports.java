package io.spool.stream.internal.group;

import io.spool.api.stream.GroupDescription;
import io.spool.api.stream.GroupReport;
import io.spool.api.stream.InvalidGroupException;
import io.spool.api.stream.OffsetSpec;
import io.spool.api.stream.TopicPartition;
import io.spool.api.stream.UnknownGroupException;
import io.spool.api.stream.UnknownPartitionException;
import io.spool.api.stream.UnknownTopicException;
import io.spool.log.PartitionLog;
import io.spool.stream.ExternalGroups;
import io.spool.stream.GroupCoordinator;
import io.spool.stream.Topic;
import io.spool.stream.TopicRegistry;
import io.spool.stream.internal.topic.TopicNames;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Reads where consumer groups stand against the logs (committed offset, log start and end, lag per partition) and
 * works out the offsets a reset would commit. Thread-safe: it reads the registry and the coordinator, which are.
 */
public final class GroupReports
{
    private final TopicRegistry topics;
    private final GroupCoordinator groups;
    private final List<ExternalGroups> external = new CopyOnWriteArrayList<>();

    public GroupReports(final TopicRegistry topics, final GroupCoordinator groups)
    {
        this.topics = topics;
        this.groups = groups;
    }

    public void addExternal(final ExternalGroups source)
    {
        external.add(source);
    }

    public void removeExternal(final ExternalGroups source)
    {
        external.remove(source);
    }

    /** The engine's groups and those of the external sources, sorted. */
    public List<String> groupIds()
    {
        final TreeSet<String> ids = new TreeSet<>(groups.groupIds());
        for (final ExternalGroups source : external)
        {
            ids.addAll(source.groupIds());
        }
        return new ArrayList<>(ids);
    }

    /** The members of a group, the engine's or, when it has none, an external source's; null when none has. */
    private GroupDescription membership(final String groupId)
    {
        final GroupDescription own = groups.describe(groupId);
        if (own != null)
        {
            return own;
        }
        for (final ExternalGroups source : external)
        {
            final GroupDescription elsewhere = source.describe(groupId);
            if (elsewhere != null)
            {
                return elsewhere;
            }
        }
        return null;
    }

    /**
     * @throws InvalidGroupException when the id breaks the naming rules
     * @throws UnknownGroupException when the group has neither live members nor committed offsets
     */
    public GroupReport describe(final String groupId)
    {
        TopicNames.validateGroup(groupId);
        final GroupDescription membership = membership(groupId);
        final List<GroupReport.PartitionPosition> positions = positions(groupId, membership);
        if (membership == null && positions.isEmpty() && !groups.groupIds().contains(groupId))
        {
            throw new UnknownGroupException("no consumer group \"" + groupId + "\": it has no members and no " +
                "committed offsets");
        }
        return new GroupReport(groupId, membership, positions);
    }

    /** Lag per partition, as {@link #describe} has it; empty for a group that does not exist. */
    public Map<TopicPartition, Long> lag(final String groupId)
    {
        final Map<TopicPartition, Long> lag = new TreeMap<>();
        for (final GroupReport.PartitionPosition position : positions(groupId, membership(groupId)))
        {
            lag.put(position.partition(), position.lag());
        }
        return lag;
    }

    /**
     * The offsets a reset of {@code topic}'s partitions (all of them when {@code partitions} is empty) to
     * {@code spec} would commit, worked out against the logs now.
     *
     * @throws UnknownTopicException     when the topic does not exist
     * @throws UnknownPartitionException when it has no such partition
     */
    public Map<TopicPartition, Long> planReset(final String groupId, final String topic,
        final Collection<Integer> partitions, final OffsetSpec spec)
    {
        TopicNames.validateGroup(groupId);
        final Topic stored = topics.topic(topic);
        final Collection<Integer> chosen = partitions.isEmpty() ? allPartitions(stored) : new TreeSet<>(partitions);
        final Map<TopicPartition, Long> offsets = new TreeMap<>();
        for (final int partition : chosen)
        {
            offsets.put(new TopicPartition(topic, partition), resolve(spec, stored.partition(partition)));
        }
        return offsets;
    }

    private static Collection<Integer> allPartitions(final Topic topic)
    {
        final List<Integer> all = new ArrayList<>(topic.partitionCount());
        for (int p = 0; p < topic.partitionCount(); p++)
        {
            all.add(p);
        }
        return all;
    }

    /**
     * Every partition of the topics the group committed for or its members subscribe to; a partition without a
     * committed offset lags by everything still in the log (end minus start).
     */
    private List<GroupReport.PartitionPosition> positions(final String groupId, final GroupDescription membership)
    {
        final Map<TopicPartition, Long> committed = groups.committedOffsets(groupId);
        final TreeSet<String> topicNames = new TreeSet<>();
        committed.keySet().forEach(partition -> topicNames.add(partition.topic()));
        if (membership != null)
        {
            membership.subscriptions().values().forEach(topicNames::addAll);
        }
        final List<GroupReport.PartitionPosition> positions = new ArrayList<>();
        for (final String name : topicNames)
        {
            final Topic topic = topics.topicOrNull(name);
            if (topic == null)
            {
                continue;
            }
            for (int p = 0; p < topic.partitionCount(); p++)
            {
                final PartitionLog log = topic.partition(p);
                final TopicPartition partition = new TopicPartition(name, p);
                final Long offset = committed.get(partition);
                final long start = log.startOffset();
                final long end = log.endOffset();
                final long from = offset == null ? start : offset;
                positions.add(new GroupReport.PartitionPosition(partition,
                    offset == null ? GroupReport.PartitionPosition.NO_OFFSET : offset, start, end,
                    Math.max(0, end - from)));
            }
        }
        return positions;
    }

    /** The offset {@code spec} names in {@code log}'s partition now. */
    private static long resolve(final OffsetSpec spec, final PartitionLog log)
    {
        switch (spec.kind())
        {
            case EARLIEST:
                return log.startOffset();
            case LATEST:
                return log.endOffset();
            case OFFSET:
                return Math.max(log.startOffset(), Math.min(spec.value(), log.endOffset()));
            default:
                return log.offsetForTimestamp(spec.value());
        }
    }
}
