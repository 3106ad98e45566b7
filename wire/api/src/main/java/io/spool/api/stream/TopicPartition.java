package io.spool.api.stream;

/**
 * One partition of one topic; ordered by topic name, then partition. Immutable, thread-safe.
 */
public record TopicPartition(String topic, int partition) implements Comparable<TopicPartition>
{
    public TopicPartition
    {
        if (topic == null)
        {
            throw new InvalidTopicException("a topic partition needs a topic name, got null");
        }
    }

    @Override
    public int compareTo(final TopicPartition other)
    {
        final int byTopic = topic.compareTo(other.topic);
        return byTopic != 0 ? byTopic : Integer.compare(partition, other.partition);
    }

    @Override
    public String toString()
    {
        return topic + "-" + partition;
    }
}
