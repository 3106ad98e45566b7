package io.spool.stream;

import io.spool.api.stream.TopicPartition;

import java.util.Collection;

/**
 * Told, on the consuming thread inside {@code poll}, which partitions a group member gives up and which it gains.
 * A partition given up is not handed to another member until {@link #onPartitionsRevoked} returns, so committing
 * there hands over the exact position. Implementations are called from one thread at a time.
 */
public interface RebalanceListener
{
    RebalanceListener NONE = new RebalanceListener()
    {
        @Override
        public void onPartitionsRevoked(final Collection<TopicPartition> partitions)
        {
        }

        @Override
        public void onPartitionsAssigned(final Collection<TopicPartition> partitions)
        {
        }
    };

    /** The member still owns these partitions during the call and may commit their offsets. */
    void onPartitionsRevoked(Collection<TopicPartition> partitions);

    /**
     * Positions of these partitions are already set from the committed offsets or the reset policy, except where
     * the policy is ERROR or the committed offset fell below the log start: those stay unset, the next poll
     * reports them, and a seek here settles them.
     */
    void onPartitionsAssigned(Collection<TopicPartition> partitions);

    /**
     * The member lost these partitions without a chance to commit (its session expired, so another member may
     * already read them). By default treated like a revocation.
     */
    default void onPartitionsLost(final Collection<TopicPartition> partitions)
    {
        onPartitionsRevoked(partitions);
    }
}
