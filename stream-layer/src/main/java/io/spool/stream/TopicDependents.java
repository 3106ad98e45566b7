package io.spool.stream;

import java.util.List;

/**
 * What reads a topic besides stream consumers, told about a topic before it is deleted: the queue layer's
 * subscriptions. Implementations are thread-safe.
 */
public interface TopicDependents
{
    TopicDependents NONE = new TopicDependents()
    {
        @Override
        public List<String> dependentsOf(final String topic)
        {
            return List.of();
        }

        @Override
        public void deleteDependents(final String topic)
        {
        }
    };

    /** What reads {@code topic}, each named for a person (such as {@code subscription "billing"}); empty if nothing. */
    List<String> dependentsOf(String topic);

    /** Deletes whatever reads {@code topic}, with its state; a forced topic delete calls it before the topic goes. */
    void deleteDependents(String topic);
}
