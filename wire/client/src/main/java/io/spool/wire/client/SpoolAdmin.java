package io.spool.wire.client;

import io.spool.api.Admin;
import io.netty.buffer.ByteBuf;
import io.spool.api.MetricSample;
import io.spool.api.queue.RedriveResult;
import io.spool.api.queue.SubscriptionDescription;
import io.spool.api.queue.SubscriptionMetrics;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicDescription;
import io.spool.wire.Fields;
import io.spool.wire.FrameDescriptor;
import io.spool.wire.MetricsDescriptor;
import io.spool.wire.OpCode;
import io.spool.wire.QueueDescriptor;
import io.spool.wire.SubscriptionDescriptor;
import io.spool.wire.TopicDescriptor;

import java.util.List;

/**
 * Topic and subscription administration over the connection; every call waits for the server and throws the exception the
 * embedded engine would (for example {@code TopicExistsException}, {@code UnknownSubscriptionException}). Thread-safe.
 */
public final class SpoolAdmin implements Admin
{
    private final ClientConnection connection;

    SpoolAdmin(final ClientConnection connection)
    {
        this.connection = connection;
    }

    public void createTopic(final String name, final TopicConfig config)
    {
        final ByteBuf out = begin(OpCode.CREATE_TOPIC);
        Fields.writeString(out, name);
        TopicDescriptor.encodeConfig(out, config);
        call(out, body -> null);
    }

    public void deleteTopic(final String name)
    {
        final ByteBuf out = begin(OpCode.DELETE_TOPIC);
        Fields.writeString(out, name);
        call(out, body -> null);
    }

    public void alterTopicRetention(final String name, final long retentionMillis, final long retentionBytes)
    {
        final ByteBuf out = begin(OpCode.ALTER_TOPIC_RETENTION);
        Fields.writeString(out, name);
        out.writeLongLE(retentionMillis);
        out.writeLongLE(retentionBytes);
        call(out, body -> null);
    }

    public TopicDescription describeTopic(final String name)
    {
        final ByteBuf out = begin(OpCode.DESCRIBE_TOPIC);
        Fields.writeString(out, name);
        return call(out, TopicDescriptor::decodeDescription);
    }

    public List<String> listTopics()
    {
        return call(begin(OpCode.LIST_TOPICS), TopicDescriptor::decodeNames);
    }

    /** The server's figures: its engine's and its own (see {@code SpoolServer.metrics()}). */
    public List<MetricSample> metrics()
    {
        return call(begin(OpCode.METRICS), MetricsDescriptor::decode);
    }

    public void createSubscription(final String name, final String topic, final SubscriptionSettings settings)
    {
        final ByteBuf out = begin(OpCode.CREATE_SUBSCRIPTION);
        Fields.writeString(out, name);
        Fields.writeString(out, topic);
        QueueDescriptor.encodeSettings(out, settings);
        call(out, body -> null);
    }

    public void deleteSubscription(final String name)
    {
        final ByteBuf out = begin(OpCode.DELETE_SUBSCRIPTION);
        Fields.writeString(out, name);
        call(out, body -> null);
    }

    public List<String> listSubscriptions()
    {
        return call(begin(OpCode.LIST_SUBSCRIPTIONS), TopicDescriptor::decodeNames);
    }

    /**
     * @throws io.spool.api.queue.UnknownSubscriptionException when there is none of that name.
     */
    public SubscriptionDescription describeSubscription(final String name)
    {
        final ByteBuf out = begin(OpCode.DESCRIBE_SUBSCRIPTION);
        Fields.writeString(out, name);
        return call(out, SubscriptionDescriptor::decodeDescription);
    }

    /**
     * Empties a subscription, as {@code Spool.purgeSubscription} does: it goes on from its topic's end, and the
     * receipts of what it held are refused.
     *
     * @return its metrics just before the purge: what was dropped.
     */
    public SubscriptionMetrics purgeSubscription(final String name)
    {
        final ByteBuf out = begin(OpCode.PURGE_SUBSCRIPTION);
        Fields.writeString(out, name);
        return call(out, SubscriptionDescriptor::decodeMetrics);
    }

    /**
     * Moves the messages that died in {@code subscription} back to it, from the records at offsets
     * {@code [fromOffset, toOffset)} of each partition of its dead-letter topic ({@code Redriver.redriveSubscription}).
     */
    public RedriveResult redrive(final String subscription, final long fromOffset, final long toOffset)
    {
        final ByteBuf out = begin(OpCode.REDRIVE);
        Fields.writeString(out, subscription);
        out.writeLongLE(fromOffset);
        out.writeLongLE(toOffset);
        return call(out, SubscriptionDescriptor::decodeRedriveResult);
    }

    private ByteBuf begin(final int opCode)
    {
        final ByteBuf out = connection.alloc().ioBuffer(128);
        FrameDescriptor.begin(out, opCode, 0, 0);
        return out;
    }

    private <T> T call(final ByteBuf frame, final java.util.function.Function<ByteBuf, T> decoder)
    {
        FrameDescriptor.finish(frame, 0);
        return connection.call(frame, decoder, 0);
    }
}
