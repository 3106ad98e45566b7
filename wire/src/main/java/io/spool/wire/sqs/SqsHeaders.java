package io.spool.wire.sqs;

import io.spool.queue.DeathHistory;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;

/**
 * The headers the SQS endpoint keeps on a message besides its attributes ({@link MessageAttributes}) and the engine's
 * own (group, deduplication id, delay): its message id, which dead-lettering and redrive keep, and its trace header.
 * A message published without the endpoint has no id header: its id is made from where it was first stored, so it
 * is the same on every receive, and in its dead-letter queue after a first death. Stateless and thread-safe.
 */
final class SqsHeaders
{
    static final String MESSAGE_ID = "x-message-id";
    static final String TRACE = "x-sqs-trace-header";
    /** The deduplication id of a message a move task moved: kept, but not deduplicated against again. */
    static final String MOVED_DEDUPLICATION_ID = "x-sqs-moved-dedup-id";

    private SqsHeaders()
    {
    }

    static String text(final Map<String, byte[]> headers, final String name)
    {
        final byte[] value = headers.get(name);
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }

    /** The message's id: its header, or one made from its first place (its death's place, for a dead letter). */
    static String messageId(final Map<String, byte[]> headers, final String topic, final int partition,
        final long offset)
    {
        final String id = text(headers, MESSAGE_ID);
        if (id != null)
        {
            return id;
        }
        final String diedIn = text(headers, DeathHistory.TOPIC);
        final String diedAt = text(headers, DeathHistory.OFFSET);
        final String place = diedIn != null && diedAt != null ?
            diedIn + "/" + text(headers, DeathHistory.PARTITION) + "@" + diedAt : topic + "/" + partition + "@" + offset;
        return UUID.nameUUIDFromBytes(place.getBytes(StandardCharsets.UTF_8)).toString();
    }

    /** A FIFO message's SequenceNumber: its offset, as the 20 digits SQS's sequence numbers have. */
    static String sequenceNumber(final long offset)
    {
        return String.format("%020d", offset);
    }
}
