package io.spool.stream;

import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.UnknownPartitionException;
import io.spool.log.PartitionLog;

/**
 * A topic, its id and the logs of its partitions. The id is drawn when the topic is created and kept across
 * restarts, so that state kept about a topic (a subscription's) can tell this topic from an earlier one of the same
 * name. Thread-safe: it hands out its (thread-safe) partition logs, and its settings change only by
 * {@link TopicRegistry}, which serialises changes.
 */
public final class Topic
{
    private final String name;
    private final String id;
    private volatile TopicConfig config;
    private final PartitionLog[] partitions;

    Topic(final String name, final String id, final TopicConfig config, final PartitionLog[] partitions)
    {
        this.name = name;
        this.id = id;
        this.config = config;
        this.partitions = partitions;
    }

    public String name()
    {
        return name;
    }

    /** Unique to this topic: a topic deleted and created again under its name has another id. */
    public String id()
    {
        return id;
    }

    public TopicConfig config()
    {
        return config;
    }

    /** Its partitions' logs keep records by the new limits first, so the settings never name a limit not kept. */
    void changeRetention(final TopicConfig changed)
    {
        for (final PartitionLog log : partitions)
        {
            log.changeRetention(changed.log().retentionMillis(), changed.log().retentionBytes());
        }
        config = changed;
    }

    public int partitionCount()
    {
        return partitions.length;
    }

    /**
     * The log of one partition.
     *
     * @throws UnknownPartitionException when {@code partition} is outside {@code [0, partitionCount())}
     */
    public PartitionLog partition(final int partition)
    {
        if (partition < 0 || partition >= partitions.length)
        {
            throw new UnknownPartitionException("topic \"" + name + "\" has partitions 0.." +
                (partitions.length - 1) + ", there is no partition " + partition);
        }
        return partitions[partition];
    }

    static String logName(final String topic, final int partition)
    {
        return TopicRegistry.TOPICS_DIRECTORY + "/" + topic + "/" + partition;
    }
}
