package io.spool.stream.internal.topic;

import java.util.Map;

/**
 * One topic as the metadata file keeps it: name, id, partition count and its log settings as named values, so a
 * setting added later reads as absent in an older file instead of shifting a binary layout. The id is drawn when the
 * topic is created, so a topic deleted and created again under the same name is another topic; it is null for a
 * topic read from a version 1 file, which had none (the registry draws one and saves it).
 * Immutable, thread-safe.
 */
public record StoredTopic(String name, String id, int partitions, Map<String, String> settings)
{
    public StoredTopic
    {
        settings = Map.copyOf(settings);
    }
}
