package io.spool.wire.sqs;

import io.spool.api.SpoolException;
import io.spool.api.log.DedupKey;
import io.spool.api.queue.AlreadySettledException;
import io.spool.api.queue.QueueHeaders;
import io.spool.api.queue.Receipt;
import io.spool.api.queue.BatchResult;
import io.spool.queue.DeathHistory;
import io.spool.queue.Delivery;
import io.spool.queue.Subscription;
import org.agrona.concurrent.EpochClock;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * ReceiveMessage, DeleteMessage(Batch) and ChangeMessageVisibility(Batch) over a queue's subscription. A receive is a
 * pull receive locked for the visibility timeout and waiting (without a thread) up to the wait time; a delete is an
 * ack, a visibility change an extend (or, to 0, a release). A handle that is stale (the message was received again
 * since, or its visibility ran out) is refused with ReceiptHandleIsInvalid, where SQS answers success and may not
 * delete. Deleting a message that is already gone from the queue succeeds, as in SQS. A message older than the
 * queue's MessageRetentionPeriod when a receive takes it is deleted instead of returned: the topic's retention is
 * fixed when the topic is made, and SetQueueAttributes can change the period at any time after. Thread-safe.
 */
final class Receiver
{
    private static final List<String> SYSTEM_ATTRIBUTES = List.of("SenderId", "SentTimestamp",
        "ApproximateReceiveCount", "ApproximateFirstReceiveTimestamp", "SequenceNumber", "MessageDeduplicationId",
        "MessageGroupId", "AWSTraceHeader", "DeadLetterQueueSourceArn");

    private final ReceiptHandles handles;
    private final QueueNames names;
    private final EpochClock clock;

    Receiver(final ReceiptHandles handles, final QueueNames names, final EpochClock clock)
    {
        this.handles = handles;
        this.names = names;
        this.clock = clock;
    }

    /** ReceiveMessage; the answer is built on {@code continuation}, never on the subscription's thread. */
    CompletableFuture<Answer> receive(final SqsQueue queue, final Params request, final Executor continuation)
    {
        final long max = request.integer("MaxNumberOfMessages", 1, BatchEntries.MAX_ENTRIES, 1);
        final long wait = request.integer("WaitTimeSeconds", 0, QueueAttributes.MAX_WAIT_TIME_SECONDS,
            queue.definition().waitTimeSeconds());
        final long visibility = request.integer("VisibilityTimeout", 0, QueueAttributes.MAX_VISIBILITY_TIMEOUT, -1);
        final long lockMillis = visibility < 0 ? queue.subscription().settings().lockTimeoutMillis() :
            QueueAttributes.lockMillis(visibility);
        final List<String> attributes = new ArrayList<>(request.strings("AttributeNames"));
        attributes.addAll(request.strings("MessageSystemAttributeNames"));
        final List<String> messageAttributes = request.strings("MessageAttributeNames");
        return queue.subscription().receiveAsync((int)max, wait * 1000, lockMillis).thenApplyAsync(deliveries ->
        {
            final List<Answer> messages = new ArrayList<>();
            final List<Receipt> expired = new ArrayList<>();
            final long retention = queue.definition().retentionMillis();
            final long now = clock.time();
            for (final Delivery delivery : deliveries)
            {
                if (retention >= 0 && now - delivery.timestamp() >= retention)
                {
                    expired.add(delivery.receipt());
                }
                else
                {
                    messages.add(message(queue, delivery, attributes, messageAttributes));
                }
            }
            if (!expired.isEmpty())
            {
                queue.subscription().ack(expired);
            }
            return new Answer().objects("Messages", "Message", messages);
        }, continuation);
    }

    private Answer message(final SqsQueue queue, final Delivery delivery, final List<String> attributeNames,
        final List<String> messageAttributeNames)
    {
        final Map<String, byte[]> headers = delivery.headers();
        final String body = delivery.valueLength() < 0 ? "" : delivery.valueAsString();
        final Map<String, MessageAttributes.Value> attributes = new LinkedHashMap<>();
        MessageAttributes.fromHeaders(headers).forEach((name, value) ->
        {
            if (wanted(name, messageAttributeNames))
            {
                attributes.put(name, value);
            }
        });
        final Map<String, Answer> attributeAnswers = new LinkedHashMap<>();
        attributes.forEach((name, value) -> attributeAnswers.put(name, value.answer()));
        return new Answer()
            .put("MessageId", SqsHeaders.messageId(headers, queue.topic(), delivery.partition(), delivery.offset()))
            .put("ReceiptHandle", handles.encode(queue.name(), queue.definition().incarnation(), delivery.receipt()))
            .put("MD5OfBody", MessageAttributes.md5Hex(body.getBytes(StandardCharsets.UTF_8)))
            .put("Body", body)
            .textMap("Attributes", "Attribute", "Name", "Value",
                systemAttributes(queue, delivery, headers, attributeNames))
            .put("MD5OfMessageAttributes", MessageAttributes.md5(attributes))
            .objectMap("MessageAttributes", "MessageAttribute", "Name", "Value", attributeAnswers);
    }

    private static boolean wanted(final String name, final List<String> asked)
    {
        for (final String pattern : asked)
        {
            if (pattern.equals("All") || pattern.equals(".*") || pattern.equals(name) ||
                pattern.endsWith(".*") && name.startsWith(pattern.substring(0, pattern.length() - 1)))
            {
                return true;
            }
        }
        return false;
    }

    private Map<String, String> systemAttributes(final SqsQueue queue, final Delivery delivery,
        final Map<String, byte[]> headers, final List<String> asked)
    {
        final Map<String, String> out = new TreeMap<>();
        for (final String name : SYSTEM_ATTRIBUTES)
        {
            if (!asked.contains(name) && !asked.contains("All"))
            {
                continue;
            }
            final String value = switch (name)
            {
                case "SenderId" -> names.account();
                case "SentTimestamp" -> Long.toString(delivery.timestamp());
                case "ApproximateReceiveCount" -> Integer.toString(delivery.deliveryNumber());
                case "ApproximateFirstReceiveTimestamp" -> Long.toString(delivery.firstDeliveryTime());
                case "SequenceNumber" -> queue.fifo() ? SqsHeaders.sequenceNumber(delivery.offset()) : null;
                case "MessageDeduplicationId" -> queue.fifo() ? deduplicationId(headers) : null;
                case "MessageGroupId" -> SqsHeaders.text(headers, QueueHeaders.GROUP_ID);
                case "AWSTraceHeader" -> SqsHeaders.text(headers, SqsHeaders.TRACE);
                case "DeadLetterQueueSourceArn" -> deadLetterSource(headers);
                default -> null;
            };
            if (value != null)
            {
                out.put(name, value);
            }
        }
        return out;
    }

    private static String deduplicationId(final Map<String, byte[]> headers)
    {
        final String id = SqsHeaders.text(headers, DedupKey.HEADER);
        return id != null ? id : SqsHeaders.text(headers, SqsHeaders.MOVED_DEDUPLICATION_ID);
    }

    private String deadLetterSource(final Map<String, byte[]> headers)
    {
        final String source = SqsHeaders.text(headers, DeathHistory.SUBSCRIPTION);
        return source == null ? null : names.arn(source);
    }

    /** DeleteMessage. */
    Answer delete(final SqsQueue queue, final Params request)
    {
        final Receipt receipt = decode(queue, request.required("ReceiptHandle"));
        final SqsException refused = refusal(queue.subscription().ack(List.of(receipt)), receipt, true);
        if (refused != null)
        {
            throw refused;
        }
        return new Answer();
    }

    /** DeleteMessageBatch. */
    Answer deleteBatch(final SqsQueue queue, final Params request)
    {
        final List<Params> entries = BatchEntries.read(request, "DeleteMessageBatchRequestEntry");
        final List<Answer> failed = new ArrayList<>();
        final Map<Receipt, String> valid = new LinkedHashMap<>();
        for (final Params entry : entries)
        {
            try
            {
                valid.put(decode(queue, entry.required("ReceiptHandle")), entry.string("Id"));
            }
            catch (final SqsException refused)
            {
                failed.add(BatchEntries.failure(entry.string("Id"), refused));
            }
        }
        final List<Answer> succeeded = new ArrayList<>();
        if (!valid.isEmpty())
        {
            final BatchResult result = queue.subscription().ack(new ArrayList<>(valid.keySet()));
            valid.forEach((receipt, id) ->
            {
                final SqsException refused = refusal(result, receipt, true);
                if (refused == null)
                {
                    succeeded.add(new Answer().put("Id", id));
                }
                else
                {
                    failed.add(BatchEntries.failure(id, refused));
                }
            });
        }
        return BatchEntries.answer("DeleteMessageBatchResultEntry", succeeded, failed);
    }

    /** ChangeMessageVisibility. */
    Answer changeVisibility(final SqsQueue queue, final Params request)
    {
        final long seconds = visibility(request);
        final Receipt receipt = decode(queue, request.required("ReceiptHandle"));
        final SqsException refused = refusal(change(queue.subscription(), List.of(receipt), seconds), receipt, false);
        if (refused != null)
        {
            throw refused;
        }
        return new Answer();
    }

    /** ChangeMessageVisibilityBatch: entries that ask for the same timeout are changed together. */
    Answer changeVisibilityBatch(final SqsQueue queue, final Params request)
    {
        final List<Params> entries = BatchEntries.read(request, "ChangeMessageVisibilityBatchRequestEntry");
        final List<Answer> failed = new ArrayList<>();
        final Map<Long, Map<Receipt, String>> bySeconds = new TreeMap<>();
        for (final Params entry : entries)
        {
            try
            {
                final Receipt receipt = decode(queue, entry.required("ReceiptHandle"));
                bySeconds.computeIfAbsent(visibility(entry), s -> new LinkedHashMap<>())
                    .put(receipt, entry.string("Id"));
            }
            catch (final SqsException refused)
            {
                failed.add(BatchEntries.failure(entry.string("Id"), refused));
            }
        }
        final List<Answer> succeeded = new ArrayList<>();
        bySeconds.forEach((seconds, receipts) ->
        {
            final BatchResult result = change(queue.subscription(), new ArrayList<>(receipts.keySet()), seconds);
            receipts.forEach((receipt, id) ->
            {
                final SqsException refused = refusal(result, receipt, false);
                if (refused == null)
                {
                    succeeded.add(new Answer().put("Id", id));
                }
                else
                {
                    failed.add(BatchEntries.failure(id, refused));
                }
            });
        });
        return BatchEntries.answer("ChangeMessageVisibilityBatchResultEntry", succeeded, failed);
    }

    private static long visibility(final Params request)
    {
        if (!request.has("VisibilityTimeout"))
        {
            throw SqsError.MISSING_PARAMETER.with("The request must contain the parameter VisibilityTimeout.");
        }
        return request.integer("VisibilityTimeout", 0, QueueAttributes.MAX_VISIBILITY_TIMEOUT, 0);
    }

    /** A visibility of 0 makes the message visible at once: a release, not a lock of no length. */
    private static BatchResult change(final Subscription subscription, final List<Receipt> receipts,
        final long seconds)
    {
        return seconds == 0 ? subscription.nack(receipts) : subscription.extend(receipts, seconds * 1000);
    }

    private Receipt decode(final SqsQueue queue, final String handle)
    {
        return handles.decode(queue.name(), queue.definition().incarnation(), handle);
    }

    /**
     * The SQS error for a refused settlement, or null when it took effect (or, for a delete, when the message is
     * gone from the queue already).
     */
    private static SqsException refusal(final BatchResult result, final Receipt receipt, final boolean deleting)
    {
        final SpoolException error = result.failed().get(receipt);
        if (error == null || deleting && error instanceof AlreadySettledException)
        {
            return null;
        }
        if (error instanceof AlreadySettledException)
        {
            return SqsError.MESSAGE_NOT_INFLIGHT.with("Message does not exist or is not available for visibility " +
                "timeout change: " + error.getMessage());
        }
        return SqsError.RECEIPT_HANDLE_IS_INVALID.with("The receipt handle is no longer valid: " +
            error.getMessage());
    }
}
