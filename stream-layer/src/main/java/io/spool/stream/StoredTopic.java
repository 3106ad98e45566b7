package io.spool.stream;

import java.util.Map;

/**
 * One topic as the metadata file keeps it: name, partition count and its log settings as named values, so a
 * setting added later reads as absent in an older file instead of shifting a binary layout.
 * Immutable, thread-safe.
 */
record StoredTopic(String name, int partitions, Map<String, String> settings)
{
    StoredTopic
    {
        settings = Map.copyOf(settings);
    }
}
