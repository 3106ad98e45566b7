package io.spool.stream;

import io.spool.api.stream.GroupReport;
import io.spool.api.stream.InvalidGroupException;
import io.spool.api.stream.InvalidTopicException;
import io.spool.api.stream.OffsetSpec;
import io.spool.api.stream.PublishListener;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicDescription;
import io.spool.api.stream.TopicExistsException;
import io.spool.api.stream.TopicPartition;
import io.spool.api.stream.UnknownGroupException;
import io.spool.api.stream.UnknownPartitionException;
import io.spool.api.stream.UnknownTopicException;
import io.spool.log.LogStore;
import io.spool.log.OpenReport;
import io.spool.log.PartitionLog;
import io.spool.stream.internal.group.CommittedOffsetStore;
import io.spool.stream.internal.group.GroupReports;
import io.spool.stream.internal.producer.TopicStoredBatches;
import org.agrona.concurrent.EpochClock;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The stream half of Spool opened on a data directory: the log store, the topics, the consumer groups and their
 * committed offsets. Every topic and committed offset is back after a reopen. The queue layer builds on the
 * same instance through {@link #logStore()} and {@link #topics()}. Thread-safe.
 * <p>
 * Layout: the log store owns the data directory ({@code topics/<name>/<partition>} per partition); the stream
 * layer keeps {@code stream/topics.meta} and {@code stream/committed-offsets.log} beside it.
 */
public final class StreamEngine implements AutoCloseable
{
    static final String STREAM_DIRECTORY = "stream";
    static final String OFFSETS_FILE = "committed-offsets.log";
    static final String PRODUCER_SEQUENCES_FILE = "producer-sequences";
    static final String PRODUCER_JOURNALS_DIRECTORY = "producer-journals";

    private final LogStore logStore;
    private final TopicRegistry topics;
    private final CommittedOffsetStore offsets;
    private final GroupCoordinator groups;
    private final ProducerSequences producerSequences;
    private final Path producerSequencesFile;
    private final GroupReports reports;
    private volatile TopicDependents dependents = TopicDependents.NONE;

    private StreamEngine(final LogStore logStore, final TopicRegistry topics, final CommittedOffsetStore offsets,
        final Path streamDirectory)
    {
        this.logStore = logStore;
        this.topics = topics;
        this.offsets = offsets;
        this.groups = new GroupCoordinator(logStore.clock(), offsets, topics::partitionCount, topics::endOffset);
        this.producerSequences = new ProducerSequences(logStore.clock().time(),
            streamDirectory.resolve(PRODUCER_JOURNALS_DIRECTORY), logStore.fileSync(), new TopicStoredBatches(topics));
        this.producerSequencesFile = streamDirectory.resolve(PRODUCER_SEQUENCES_FILE);
        producerSequences.load(producerSequencesFile);
        producerSequences.recover();
        this.reports = new GroupReports(topics, groups);
    }

    public static StreamEngine open(final Path dataDir)
    {
        return open(dataDir, StreamEngineConfig.defaults());
    }

    public static StreamEngine open(final Path dataDir, final StreamEngineConfig config)
    {
        final LogStore logStore = LogStore.open(dataDir, config.logStore());
        try
        {
            final Path streamDirectory = dataDir.resolve(STREAM_DIRECTORY);
            final TopicRegistry topics = new TopicRegistry(logStore, streamDirectory);
            final CommittedOffsetStore offsets = CommittedOffsetStore.open(
                streamDirectory.resolve(OFFSETS_FILE), config.syncEachCommit(), logStore.fileSync());
            forgetOffsetsPastTheEnd(offsets, topics, logStore.openReport());
            return new StreamEngine(logStore, topics, offsets, streamDirectory);
        }
        catch (final RuntimeException ex)
        {
            logStore.close();
            throw ex;
        }
    }

    /**
     * A committed offset above its log's end names records recovery cut (or a log that was lost): were it kept, the
     * group would wait there while new records took the offsets below it. Forgetting it makes the group's reset
     * policy decide where it goes on, as for an offset out of range.
     */
    private static void forgetOffsetsPastTheEnd(final CommittedOffsetStore offsets, final TopicRegistry topics,
        final OpenReport report)
    {
        for (final String group : offsets.groups())
        {
            offsets.committedOffsets(group).forEach((partition, offset) ->
            {
                final long end = topics.endOffset(partition);
                if (end >= 0 && offset > end)
                {
                    offsets.forget(group, partition);
                    report.add(OpenReport.Action.MOVED_TO_LOG_END, "group " + group + " " + partition,
                        "committed offset " + offset + " is past the log's end " + end + " (recovery cut the log); " +
                            "forgot it, so the consumers' offset reset policy decides where the group goes on");
                }
            });
        }
    }

    /** What else reads the topics (the queue layer's subscriptions), asked before a topic is deleted. */
    public void dependents(final TopicDependents dependents)
    {
        this.dependents = java.util.Objects.requireNonNull(dependents, "dependents");
    }

    /**
     * @throws InvalidTopicException when the name or settings break a rule
     * @throws TopicExistsException  when the name is taken
     */
    public Topic createTopic(final String name, final TopicConfig config)
    {
        final Topic topic = topics.create(name, config);
        groups.topicsChanged();
        return topic;
    }

    /**
     * Changes a live topic's retention limits (by age and by size) to those of {@code config}, which is otherwise
     * the topic's settings as they are (build it with {@link TopicConfig#withRetention}). The change is kept across
     * restarts, and the next retention pass deletes the closed segments the new limits exclude.
     *
     * @throws UnknownTopicException when there is no such topic
     * @throws InvalidTopicException when {@code config} changes a setting other than retention, naming it
     */
    public Topic alterTopic(final String name, final TopicConfig config)
    {
        return topics.alter(name, config);
    }

    /**
     * Deletes the topic, its data and every group's committed offsets for it, refusing while anything else (a
     * subscription) reads it.
     *
     * @throws UnknownTopicException when there is no such topic
     * @throws TopicInUseException   when a subscription reads it; delete those first, or use
     *                               {@link #deleteTopic(String, boolean)} with force
     */
    public void deleteTopic(final String name)
    {
        deleteTopic(name, false);
    }

    /**
     * Deletes the topic, its data and every group's committed offsets for it; with {@code force}, also whatever
     * reads it (its subscriptions and their state), first, so that a crash part-way never leaves a subscription
     * without its topic. A topic created again under the name is another topic (another {@link Topic#id()}) and
     * inherits nothing.
     *
     * @throws UnknownTopicException when there is no such topic
     * @throws TopicInUseException   when something reads it and {@code force} is false
     */
    public synchronized void deleteTopic(final String name, final boolean force)
    {
        topics.topic(name);
        final List<String> readers = dependents.dependentsOf(name);
        if (!readers.isEmpty())
        {
            if (!force)
            {
                throw new TopicInUseException(name, readers);
            }
            dependents.deleteDependents(name);
        }
        offsets.deleteTopic(name);
        topics.delete(name);
        producerSequences.forgetTopic(name);
        groups.topicsChanged();
    }

    /**
     * @throws UnknownTopicException when there is no such topic
     */
    public TopicDescription describeTopic(final String name)
    {
        return topics.describe(name);
    }

    public List<String> listTopics()
    {
        return topics.list();
    }

    public TopicRegistry topics()
    {
        return topics;
    }

    public GroupCoordinator groups()
    {
        return groups;
    }

    /** Idempotent producers' ids and sequences, for a protocol that numbers its batches (Kafka's). */
    public ProducerSequences producerSequences()
    {
        return producerSequences;
    }

    /** A producer whose zero-copy publishes report to {@code listener}; one per publishing thread. */
    public StreamProducer newProducer(final PublishListener listener)
    {
        return new StreamProducer(topics, logStore.newProducer(), listener);
    }

    /** A producer for the future-returning {@code send} methods only; its zero-copy publishes are refused. */
    public StreamProducer newProducer()
    {
        return new StreamProducer(topics, logStore.newProducer(), null);
    }

    /** A consumer; one per consuming thread. */
    public StreamConsumer newConsumer(final ConsumerConfig config)
    {
        return new StreamConsumer(topics, groups, logStore.clock(), config);
    }

    /**
     * Lag of a group per partition: end offset minus committed offset, for every partition of the topics it has
     * committed for or its members subscribe to. A partition without a committed offset lags by everything still
     * in the log (end minus start).
     */
    public Map<TopicPartition, Long> lag(final String groupId)
    {
        return reports.lag(groupId);
    }

    /** The ids of the groups with live members (here or in an {@link ExternalGroups}) or committed offsets, sorted. */
    public List<String> listGroups()
    {
        return reports.groupIds();
    }

    /** Shows the groups a protocol adapter coordinates itself in {@link #describeGroup} and {@link #listGroups}. */
    public void addExternalGroups(final ExternalGroups source)
    {
        reports.addExternal(source);
    }

    public void removeExternalGroups(final ExternalGroups source)
    {
        reports.removeExternal(source);
    }

    /**
     * A group's members and, per partition it committed for or subscribes to, its committed offset, the log's start
     * and end, and its lag.
     *
     * @throws UnknownGroupException when the group has neither live members nor committed offsets
     */
    public GroupReport describeGroup(final String groupId)
    {
        return reports.describe(groupId);
    }

    /**
     * Commits, for {@code groupId}, the offsets {@code spec} names in each of {@code partitions} of {@code topic}
     * (every partition when empty), as Kafka's {@code kafka-consumer-groups --reset-offsets --execute} does. An
     * offset is kept within the log's start and end; a time after the last record names the end.
     *
     * @return the offsets committed.
     * @throws InvalidGroupException     when the group has live members (stop them first)
     * @throws UnknownTopicException     when the topic does not exist
     * @throws UnknownPartitionException when it has no such partition
     */
    public Map<TopicPartition, Long> resetOffsets(final String groupId, final String topic,
        final Collection<Integer> partitions, final OffsetSpec spec)
    {
        final Map<TopicPartition, Long> offsets = planOffsetReset(groupId, topic, partitions, spec);
        groups.resetOffsets(groupId, offsets);
        return offsets;
    }

    /** The offsets {@link #resetOffsets} would commit now, committing nothing (Kafka's {@code --dry-run}). */
    public Map<TopicPartition, Long> planOffsetReset(final String groupId, final String topic,
        final Collection<Integer> partitions, final OffsetSpec spec)
    {
        return reports.planReset(groupId, topic, partitions, spec);
    }

    /**
     * Forgets a group's committed offsets.
     *
     * @throws UnknownGroupException when the group has neither live members nor committed offsets
     * @throws InvalidGroupException when it has live members (they must leave first)
     */
    public void deleteGroup(final String groupId)
    {
        reports.describe(groupId);
        groups.deleteGroup(groupId);
    }

    /** End offset minus the group's committed offset for one partition (see {@link #lag(String)}). */
    public long lag(final String groupId, final TopicPartition partition)
    {
        final PartitionLog log = topics.topic(partition.topic()).partition(partition.partition());
        final long committed = groups.committed(groupId, partition);
        final long from = committed == CommittedOffsetStore.NO_OFFSET ? log.startOffset() : committed;
        return Math.max(0, log.endOffset() - from);
    }

    /** Applies retention and expires dead group members now; returns deleted segments plus expired members. */
    public int runMaintenance()
    {
        return logStore.runMaintenance() + groups.expireSessions();
    }

    public LogStore logStore()
    {
        return logStore;
    }

    public EpochClock clock()
    {
        return logStore.clock();
    }

    /** Closes the log store (confirming everything published), saves the producer sequences, closes the offsets. */
    @Override
    public void close()
    {
        try
        {
            logStore.close();
            producerSequences.save(logStore.fileSync(), producerSequencesFile);
        }
        finally
        {
            offsets.close();
        }
    }
}
