package io.spool.wire.kafka;

import io.spool.stream.StreamEngine;
import org.apache.kafka.common.Uuid;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Kafka's topic ids for Spool's topics, which have none of their own: a name-based UUID of the topic's name, so
 * every listener and every restart gives a topic the same id. Unlike Kafka, a topic deleted and created again
 * under the same name keeps its id. Thread-safe.
 */
final class TopicIds
{
    private final StreamEngine streams;
    private final Map<Uuid, String> names = new ConcurrentHashMap<>();

    TopicIds(final StreamEngine streams)
    {
        this.streams = streams;
    }

    Uuid idOf(final String topic)
    {
        final UUID uuid = UUID.nameUUIDFromBytes(("spool-topic:" + topic).getBytes(StandardCharsets.UTF_8));
        final Uuid id = new Uuid(uuid.getMostSignificantBits(), uuid.getLeastSignificantBits());
        names.putIfAbsent(id, topic);
        return id;
    }

    /** The name of the topic with this id, or null when no topic has it. */
    String nameOf(final Uuid id)
    {
        final String known = names.get(id);
        if (known != null && streams.topics().topicOrNull(known) != null)
        {
            return known;
        }
        for (final String topic : streams.listTopics())
        {
            if (idOf(topic).equals(id))
            {
                return topic;
            }
        }
        return null;
    }
}
