package io.spool.stream;

import io.spool.api.InvalidRequestException;

import java.util.List;

/**
 * A topic was to be deleted while something still reads it (a subscription); the message names what, and says how
 * to delete them with it. Immutable, thread-safe.
 */
public final class TopicInUseException extends InvalidRequestException
{
    public TopicInUseException(final String topic, final List<String> dependents)
    {
        super("topic \"" + topic + "\" is read by " + String.join(", ", dependents) +
            "; delete " + (dependents.size() == 1 ? "it" : "them") + " first, or delete the topic with force to " +
            "delete " + (dependents.size() == 1 ? "it" : "them") + " with it");
    }
}
