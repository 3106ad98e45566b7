package io.spool.wire.kafka;

import io.spool.api.queue.BatchResult;
import io.spool.api.queue.Receipt;
import io.spool.queue.Subscription;
import org.apache.kafka.common.message.ShareAcknowledgeRequestData;
import org.apache.kafka.common.message.ShareAcknowledgeResponseData;
import org.apache.kafka.common.protocol.Errors;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Settles a share session's acquired records as its member acknowledges them, in a ShareAcknowledge or piggybacked
 * on a ShareFetch: accept acks the delivery, release nacks it, reject kills it, renew extends its lock.
 * Thread-safe.
 */
final class ShareAcknowledgements
{
    private static final byte GAP = 0;
    private static final byte ACCEPT = 1;
    private static final byte RELEASE = 2;
    private static final byte REJECT = 3;
    private static final byte RENEW = 4;

    private final ShareSubscriptions subscriptions;
    private final ShareSessions sessions;

    ShareAcknowledgements(final ShareSubscriptions subscriptions, final ShareSessions sessions)
    {
        this.subscriptions = subscriptions;
        this.sessions = sessions;
    }

    /** One acknowledgement batch: a range of offsets with one type for all, or one type per offset. */
    record AckRange(long first, long last, List<Byte> types)
    {
        byte typeAt(final long offset)
        {
            return types.size() == 1 ? types.get(0) : types.get((int)(offset - first));
        }
    }

    /** Answers a ShareAcknowledge of a known member. */
    void acknowledge(final KafkaRequest request)
    {
        final ShareAcknowledgeRequestData body = request.body();
        final ShareAcknowledgeResponseData response = new ShareAcknowledgeResponseData();
        final ShareSession session = sessions.forRequest(request, body.groupId(), body.memberId(),
            body.shareSessionEpoch(), (error, message) -> response.setErrorCode(error.code()).setErrorMessage(message));
        if (session == null)
        {
            return;
        }
        final Subscription subscription = subscriptions.of(body.groupId());
        for (final ShareAcknowledgeRequestData.AcknowledgeTopic topic : body.topics())
        {
            final ShareAcknowledgeResponseData.ShareAcknowledgeTopicResponse topicResponse =
                new ShareAcknowledgeResponseData.ShareAcknowledgeTopicResponse().setTopicId(topic.topicId());
            response.responses().add(topicResponse);
            for (final ShareAcknowledgeRequestData.AcknowledgePartition partition : topic.partitions())
            {
                final Errors error = settle(subscription, session, partition.partitionIndex(),
                    partition.acknowledgementBatches().stream().map(b -> new AckRange(b.firstOffset(), b.lastOffset(),
                        b.acknowledgeTypes())).toList());
                topicResponse.partitions().add(new ShareAcknowledgeResponseData.PartitionData()
                    .setPartitionIndex(partition.partitionIndex()).setErrorCode(error.code()));
            }
        }
        if (body.shareSessionEpoch() == ShareSessions.FINAL_EPOCH)
        {
            sessions.close(session);
        }
        request.respond(response);
    }

    /** Settles the acknowledged records of one partition; INVALID_RECORD_STATE when one was not acquired here. */
    Errors settle(final Subscription subscription, final ShareSession session, final int partition,
        final List<AckRange> ranges)
    {
        final Map<Byte, List<Receipt>> byType = new HashMap<>();
        boolean unknown = subscription == null;
        for (final AckRange range : ranges)
        {
            if (range.last < range.first || (range.types.size() != 1 &&
                range.types.size() != range.last - range.first + 1))
            {
                return Errors.INVALID_REQUEST;
            }
            for (long offset = range.first; offset <= range.last; offset++)
            {
                final byte type = range.typeAt(offset);
                if (type == GAP)
                {
                    continue;
                }
                final Receipt receipt = type == RENEW ? session.peek(partition, offset) : session.take(partition, offset);
                if (receipt == null)
                {
                    unknown = true;
                    continue;
                }
                byType.computeIfAbsent(type, t -> new ArrayList<>()).add(receipt);
            }
        }
        if (subscription == null)
        {
            return Errors.INVALID_RECORD_STATE;
        }
        boolean failed = false;
        for (final Map.Entry<Byte, List<Receipt>> settled : byType.entrySet())
        {
            final BatchResult result = switch (settled.getKey())
            {
                case ACCEPT -> subscription.ack(settled.getValue());
                case RELEASE -> subscription.nack(settled.getValue());
                case REJECT -> subscription.reject(settled.getValue());
                case RENEW -> subscription.extend(settled.getValue(), subscription.settings().lockTimeoutMillis());
                default -> null;
            };
            failed |= result == null || !result.allSucceeded();
        }
        return unknown || failed ? Errors.INVALID_RECORD_STATE : Errors.NONE;
    }
}
