package io.spool.wire.sqs;

import io.spool.Spool;
import io.spool.SpoolProducer;
import io.spool.api.log.DedupKey;
import io.spool.api.log.HeadersCodec;
import io.spool.api.log.RecordView;
import io.spool.api.queue.QueueHeaders;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.PublishResult;
import io.spool.log.LogReader;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;

/**
 * SendMessage and SendMessageBatch: checks each message as SQS does and publishes it to its queue's topic, with its
 * id, attributes, group, deduplication id and delay as headers ({@link SqsHeaders}). A repeat inside the dedup window
 * is not stored again and answers with the first message's id and sequence number, as SQS does. Thread-safe: each
 * thread publishes through a producer of its own.
 */
final class Sender
{
    /** The most a batch's messages may weigh together, as in SQS. */
    static final int MAX_BATCH_BYTES = QueueAttributes.MAX_MAXIMUM_MESSAGE_SIZE;

    private final Spool spool;
    private final ThreadLocal<SpoolProducer> producers;

    Sender(final Spool spool)
    {
        this.spool = spool;
        this.producers = ThreadLocal.withInitial(spool::newProducer);
    }

    /** A message ready to publish and the parts of its answer known before it is stored. */
    private record Prepared(ProducerRecord record, String messageId, int size, Answer answer, boolean deduplicated)
    {
    }

    /** SendMessage; the answer is built on {@code continuation}, never on the log's thread. */
    CompletableFuture<Answer> send(final SqsQueue queue, final Params request, final Executor continuation)
    {
        final Prepared message = prepare(queue, request);
        return producers.get().send(message.record).thenApplyAsync(stored -> stored(queue, message, stored),
            continuation);
    }

    /** SendMessageBatch: every valid entry is published in one batch; each invalid one fails on its own. */
    CompletableFuture<Answer> sendBatch(final SqsQueue queue, final Params request, final Executor continuation)
    {
        final List<Params> entries = BatchEntries.read(request, "SendMessageBatchRequestEntry");
        final List<String> ids = new ArrayList<>();
        final List<Prepared> prepared = new ArrayList<>();
        final List<Answer> failed = new ArrayList<>();
        int bytes = 0;
        for (final Params entry : entries)
        {
            final String id = entry.string("Id");
            try
            {
                final Prepared message = prepare(queue, entry);
                bytes += message.size;
                ids.add(id);
                prepared.add(message);
            }
            catch (final SqsException refused)
            {
                failed.add(BatchEntries.failure(id, refused));
            }
        }
        if (bytes > MAX_BATCH_BYTES)
        {
            throw SqsError.BATCH_REQUEST_TOO_LONG.with("Batch requested message too long: the messages weigh " +
                bytes + " bytes together, at most " + MAX_BATCH_BYTES + " are allowed.");
        }
        if (prepared.isEmpty())
        {
            return CompletableFuture.completedFuture(BatchEntries.answer("SendMessageBatchResultEntry", List.of(),
                failed));
        }
        return producers.get().sendBatch(prepared.stream().map(Prepared::record).toList()).thenApplyAsync(stored ->
        {
            final List<Answer> succeeded = new ArrayList<>();
            for (int i = 0; i < prepared.size(); i++)
            {
                succeeded.add(stored(queue, prepared.get(i), stored.get(i)).put("Id", ids.get(i)));
            }
            return BatchEntries.answer("SendMessageBatchResultEntry", succeeded, failed);
        }, continuation);
    }

    private Prepared prepare(final SqsQueue queue, final Params request)
    {
        final QueueDefinition definition = queue.definition();
        final String body = request.string("MessageBody");
        if (body == null || body.isEmpty())
        {
            throw SqsError.MISSING_PARAMETER.with("The request must contain the parameter MessageBody.");
        }
        SendChecks.checkCharacters(body, "message body");
        final byte[] value = body.getBytes(StandardCharsets.UTF_8);
        final Map<String, MessageAttributes.Value> attributes =
            MessageAttributes.read(request.map("MessageAttributes"), "MessageAttributes");
        final String trace = traceHeader(request);
        int size = value.length;
        for (final Map.Entry<String, MessageAttributes.Value> attribute : attributes.entrySet())
        {
            size += attribute.getValue().size(attribute.getKey());
        }
        if (size > definition.maximumMessageSize())
        {
            throw SqsError.INVALID_PARAMETER_VALUE.with("One or more parameters are invalid. Reason: Message must " +
                "be shorter than " + definition.maximumMessageSize() + " bytes (this one has " + size + ").");
        }
        final Map<String, byte[]> headers = new LinkedHashMap<>();
        final String messageId = newMessageId();
        headers.put(SqsHeaders.MESSAGE_ID, text(messageId));
        MessageAttributes.toHeaders(attributes, headers);
        final long delaySeconds = request.integer("DelaySeconds", 0, QueueAttributes.MAX_DELAY_SECONDS, -1);
        final boolean deduplicated = queue.fifo() ? fifoHeaders(queue, request, body, delaySeconds, headers) :
            standardHeaders(request, headers);
        final long delay = delaySeconds >= 0 ? delaySeconds : definition.delaySeconds();
        if (delay > 0)
        {
            headers.put(QueueHeaders.DELAY, QueueHeaders.millis(delay * 1000));
        }
        if (trace != null)
        {
            headers.put(SqsHeaders.TRACE, text(trace));
        }
        if (!definition.ownsTopic())
        {
            headers.put(QueueHeaders.ROUTED_TO, text(queue.name()));
        }
        final Answer answer = new Answer().put("MD5OfMessageBody", MessageAttributes.md5Hex(value))
            .put("MD5OfMessageAttributes", MessageAttributes.md5(attributes))
            .put("MD5OfMessageSystemAttributes", trace == null ? null :
                MessageAttributes.md5(Map.of("AWSTraceHeader", new MessageAttributes.Value("String", trace, null))));
        return new Prepared(new ProducerRecord(queue.topic(), ProducerRecord.ANY_PARTITION, null, headers, value),
            messageId, size, answer, deduplicated);
    }

    private static boolean standardHeaders(final Params request, final Map<String, byte[]> headers)
    {
        if (request.has("MessageDeduplicationId"))
        {
            throw SqsError.INVALID_PARAMETER_VALUE.with("The request include parameter MessageDeduplicationId " +
                "that is not valid for this queue type (it is for FIFO queues).");
        }
        final String group = SendChecks.fifoId(request, "MessageGroupId");
        if (group != null)
        {
            headers.put(QueueHeaders.GROUP_ID, text(group));
        }
        return false;
    }

    private static boolean fifoHeaders(final SqsQueue queue, final Params request, final String body,
        final long delaySeconds, final Map<String, byte[]> headers)
    {
        if (delaySeconds >= 0)
        {
            throw SqsError.INVALID_PARAMETER_VALUE.with("Value " + delaySeconds + " for parameter DelaySeconds is " +
                "invalid. Reason: The request include parameter that is not valid for this queue type (a FIFO " +
                "queue's delay is the queue's DelaySeconds).");
        }
        final String group = SendChecks.fifoId(request, "MessageGroupId");
        if (group == null)
        {
            throw SqsError.MISSING_PARAMETER.with("The request must contain the parameter MessageGroupId.");
        }
        String dedup = SendChecks.fifoId(request, "MessageDeduplicationId");
        if (dedup == null)
        {
            if (!queue.definition().contentBasedDeduplication())
            {
                throw SqsError.INVALID_PARAMETER_VALUE.with("The queue should either have ContentBasedDeduplication " +
                    "enabled or MessageDeduplicationId provided explicitly");
            }
            dedup = sha256Hex(body);
        }
        headers.put(QueueHeaders.GROUP_ID, text(group));
        headers.put(DedupKey.HEADER, text(dedup));
        return true;
    }

    private static String traceHeader(final Params request)
    {
        final Map<String, Object> system = request.map("MessageSystemAttributes");
        String trace = null;
        for (final Map.Entry<String, Object> attribute : system.entrySet())
        {
            if (!attribute.getKey().equals("AWSTraceHeader"))
            {
                throw SqsError.INVALID_PARAMETER_VALUE.with("Message system attribute name '" + attribute.getKey() +
                    "' is invalid: only AWSTraceHeader is supported.");
            }
            final Params value = Params.of(attribute.getValue(), "MessageSystemAttributes AWSTraceHeader");
            trace = value.string("StringValue");
            if (!"String".equals(value.string("DataType")) || trace == null || trace.isEmpty())
            {
                throw SqsError.INVALID_PARAMETER_VALUE.with("Message system attribute AWSTraceHeader must be a " +
                    "non-empty String.");
            }
        }
        return trace;
    }

    /** The answer once stored: a repeat inside the dedup window answers with the stored message's id. */
    private Answer stored(final SqsQueue queue, final Prepared message, final PublishResult stored)
    {
        final String messageId = message.deduplicated ?
            storedMessageId(stored, message.messageId) : message.messageId;
        final Answer answer = message.answer.put("MessageId", messageId);
        return queue.fifo() ? answer.put("SequenceNumber", SqsHeaders.sequenceNumber(stored.offset())) : answer;
    }

    /** The id of the message stored at the place a deduplicated publish answered with: its own, or the first's. */
    private String storedMessageId(final PublishResult stored, final String sent)
    {
        try (LogReader reader = spool.streams().topics().topic(stored.topic()).partition(stored.partition())
            .newReader())
        {
            reader.seek(stored.offset());
            final RecordView record = reader.next();
            if (record == null || record.offset() != stored.offset())
            {
                return sent;
            }
            final byte[] id = HeadersCodec.find(record.buffer(), record.headersOffset(), record.headersLength(),
                SqsHeaders.MESSAGE_ID);
            return id == null ? sent : new String(id, StandardCharsets.UTF_8);
        }
    }

    static String newMessageId()
    {
        final ThreadLocalRandom random = ThreadLocalRandom.current();
        final long high = random.nextLong() & ~0xF000L | 0x4000L;
        final long low = random.nextLong() & 0x3FFFFFFFFFFFFFFFL | 0x8000000000000000L;
        return new UUID(high, low).toString();
    }

    private static String sha256Hex(final String body)
    {
        try
        {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(body.getBytes(StandardCharsets.UTF_8)));
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("this JVM has no SHA-256, which every Java platform must have", ex);
        }
    }

    private static byte[] text(final String value)
    {
        return value.getBytes(StandardCharsets.UTF_8);
    }
}
