package io.spool.cluster;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the consumers of one group did, in the order they did it: each record consumed and each commit the
 * coordinator confirmed. Read back, it says which records the group consumed, where its commits stand, and every
 * record consumed again after a commit past it was confirmed: what a group resuming from its committed offsets
 * must never do. Thread-safe.
 */
final class GroupHistory
{
    private record Event(TopicPartition partition, long offset, String value, boolean commit)
    {
    }

    private final List<Event> events = new ArrayList<>();

    synchronized void consumed(final ConsumerRecord<byte[], byte[]> record)
    {
        events.add(new Event(new TopicPartition(record.topic(), record.partition()), record.offset(),
            new String(record.value(), StandardCharsets.UTF_8), false));
    }

    /** Called once {@code commitSync} of these offsets has returned. */
    synchronized void committed(final Map<TopicPartition, OffsetAndMetadata> offsets)
    {
        offsets.forEach((partition, offset) -> events.add(new Event(partition, offset.offset(), null, true)));
    }

    synchronized Set<String> consumedValues()
    {
        final Set<String> values = new HashSet<>();
        events.stream().filter(event -> !event.commit()).forEach(event -> values.add(event.value()));
        return values;
    }

    /** The highest confirmed commit of each partition. */
    synchronized Map<TopicPartition, Long> confirmedCommits()
    {
        final Map<TopicPartition, Long> confirmed = new HashMap<>();
        events.stream().filter(Event::commit).forEach(event -> confirmed.merge(event.partition(), event.offset(),
            Math::max));
        return confirmed;
    }

    /** Every record consumed below its partition's confirmed commit at the time, described. */
    synchronized List<String> consumedAgainAfterTheirCommit()
    {
        final Map<TopicPartition, Long> confirmed = new HashMap<>();
        final List<String> violations = new ArrayList<>();
        for (final Event event : events)
        {
            final long commit = confirmed.getOrDefault(event.partition(), 0L);
            if (event.commit())
            {
                confirmed.put(event.partition(), Math.max(commit, event.offset()));
            }
            else if (event.offset() < commit)
            {
                violations.add(event.partition() + " offset " + event.offset() + " after a commit of " + commit);
            }
        }
        return violations;
    }
}
