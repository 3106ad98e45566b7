package io.spool.wire.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.spool.Spool;
import io.spool.api.MetricSample;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.InvalidRequestException;
import io.spool.api.stream.TopicConfig;
import io.spool.wire.ErrorDescriptor;
import io.spool.wire.Fields;
import io.spool.wire.FrameDescriptor;
import io.spool.wire.GroupAdminDescriptor;
import io.spool.wire.GroupDescriptor;
import io.spool.wire.MetricsDescriptor;
import io.spool.wire.OpCode;
import io.spool.wire.QueueDescriptor;
import io.spool.wire.SubscriptionDescriptor;
import io.spool.wire.TopicDescriptor;

import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The topic, subscription and consumer group admin operations. Requests are decoded on the event loop; the work (which creates and deletes files)
 * runs on the server's admin executor so no connection's I/O waits on it. Thread-safe.
 */
final class AdminOperations
{
    private final Spool engine;
    private final Executor executor;
    private final Supplier<List<MetricSample>> metrics;
    /** Why topics may not be created or deleted here, or null when they may ({@link ServerConfig#writesRefused}). */
    private final String writesRefused;
    /** Where a cluster node deletes topics and changes their retention, through the cluster; null on a server that is no cluster node. */
    private final ReplicatedPublishes replicated;
    /** The partitions a cluster node holds copies of; all on a server that is no cluster node. */
    private final HeldPartitions held;

    AdminOperations(final Spool engine, final Executor executor, final Supplier<List<MetricSample>> metrics,
        final String writesRefused, final ReplicatedPublishes replicated, final HeldPartitions held)
    {
        this.held = held;
        this.writesRefused = writesRefused;
        this.replicated = replicated;
        this.engine = engine;
        this.executor = executor;
        this.metrics = metrics;
    }

    static boolean handles(final int opCode)
    {
        return (opCode >= OpCode.CREATE_TOPIC && opCode <= OpCode.ALTER_TOPIC_RETENTION) ||
            (opCode >= OpCode.CREATE_SUBSCRIPTION && opCode <= OpCode.REDRIVE) ||
            (opCode >= OpCode.LIST_GROUPS && opCode <= OpCode.DELETE_GROUP);
    }

    private void refuseIfWritesRefused()
    {
        if (writesRefused != null)
        {
            throw new InvalidRequestException(writesRefused);
        }
    }

    /** On a cluster node, on every node of the cluster. */
    private void deleteTopic(final String name)
    {
        if (replicated != null)
        {
            replicated.deleteTopic(name);
            return;
        }
        refuseIfWritesRefused();
        engine.streams().deleteTopic(name);
    }

    private void alterTopicRetention(final String name, final long retentionMillis, final long retentionBytes)
    {
        if (replicated != null)
        {
            replicated.alterTopicRetention(name, retentionMillis, retentionBytes);
            return;
        }
        refuseIfWritesRefused();
        engine.admin().alterTopicRetention(name, retentionMillis, retentionBytes);
    }

    /** Decodes the request body now and answers from the admin executor. */
    void handle(final Channel channel, final int opCode, final long correlationId, final ByteBuf body)
    {
        switch (opCode)
        {
            case OpCode.CREATE_TOPIC:
            {
                final String name = Fields.readString(body);
                final TopicConfig config = TopicDescriptor.decodeConfig(body);
                Fields.expectEnd(body);
                answer(channel, opCode, correlationId, out ->
                {
                    refuseIfWritesRefused();
                    engine.createTopic(name, config);
                });
                break;
            }
            case OpCode.ALTER_TOPIC_RETENTION:
            {
                final String name = Fields.readString(body);
                final long retentionMillis = body.readLongLE();
                final long retentionBytes = body.readLongLE();
                Fields.expectEnd(body);
                answer(channel, opCode, correlationId, out -> alterTopicRetention(name, retentionMillis, retentionBytes));
                break;
            }
            case OpCode.DELETE_TOPIC:
                answerNamed(channel, opCode, correlationId, body, (out, name) -> deleteTopic(name));
                break;
            case OpCode.DESCRIBE_TOPIC:
                answerNamed(channel, opCode, correlationId, body,
                    (out, name) -> TopicDescriptor.encodeDescription(out,
                        held.withHoldersElsewhere(engine.streams().describeTopic(name))));
                break;
            case OpCode.LIST_TOPICS:
                answerEmpty(channel, opCode, correlationId, body,
                    out -> TopicDescriptor.encodeNames(out, engine.streams().listTopics()));
                break;
            case OpCode.METRICS:
                answerEmpty(channel, opCode, correlationId, body, out -> MetricsDescriptor.encode(out, metrics.get()));
                break;
            case OpCode.CREATE_SUBSCRIPTION:
            {
                final String name = Fields.readString(body);
                final String topic = Fields.readString(body);
                final SubscriptionSettings settings = QueueDescriptor.decodeSettings(body);
                Fields.expectEnd(body);
                answer(channel, opCode, correlationId, out ->
                {
                    QueueSession.requireAllHeld(engine, held, topic);
                    engine.createSubscription(name, topic, settings);
                });
                break;
            }
            case OpCode.DELETE_SUBSCRIPTION:
                answerNamed(channel, opCode, correlationId, body, (out, name) -> engine.deleteSubscription(name));
                break;
            case OpCode.LIST_SUBSCRIPTIONS:
                answerEmpty(channel, opCode, correlationId, body,
                    out -> TopicDescriptor.encodeNames(out, engine.subscriptions()));
                break;
            default:
                handleOperatorCall(channel, opCode, correlationId, body);
                break;
        }
    }

    /** The operations that inspect and repair subscriptions and consumer groups. */
    private void handleOperatorCall(final Channel channel, final int opCode, final long correlationId,
        final ByteBuf body)
    {
        switch (opCode)
        {
            case OpCode.DESCRIBE_SUBSCRIPTION:
                answerNamed(channel, opCode, correlationId, body,
                    (out, name) -> SubscriptionDescriptor.encodeDescription(out,
                        engine.admin().describeSubscription(name)));
                break;
            case OpCode.PURGE_SUBSCRIPTION:
                answerNamed(channel, opCode, correlationId, body,
                    (out, name) -> SubscriptionDescriptor.encodeMetrics(out, engine.admin().purgeSubscription(name)));
                break;
            case OpCode.REDRIVE:
            {
                final String name = Fields.readString(body);
                final long fromOffset = body.readLongLE();
                final long toOffset = body.readLongLE();
                Fields.expectEnd(body);
                answer(channel, opCode, correlationId, out -> SubscriptionDescriptor.encodeRedriveResult(out,
                    engine.admin().redrive(name, fromOffset, toOffset)));
                break;
            }
            case OpCode.LIST_GROUPS:
                answerEmpty(channel, opCode, correlationId, body,
                    out -> TopicDescriptor.encodeNames(out, engine.streams().listGroups()));
                break;
            case OpCode.DESCRIBE_GROUP:
                answerNamed(channel, opCode, correlationId, body,
                    (out, groupId) -> GroupAdminDescriptor.encodeReport(out, engine.streams().describeGroup(groupId)));
                break;
            case OpCode.RESET_OFFSETS:
            {
                final GroupAdminDescriptor.Reset reset = GroupAdminDescriptor.decodeReset(body);
                Fields.expectEnd(body);
                answer(channel, opCode, correlationId, out -> GroupDescriptor.encodeOffsets(out, reset.dryRun() ?
                    engine.streams().planOffsetReset(reset.groupId(), reset.topic(), reset.partitions(), reset.spec()) :
                    engine.streams().resetOffsets(reset.groupId(), reset.topic(), reset.partitions(), reset.spec())));
                break;
            }
            default:
                answerNamed(channel, opCode, correlationId, body,
                    (out, groupId) -> engine.streams().deleteGroup(groupId));
                break;
        }
    }

    /** A request whose body is empty. */
    private void answerEmpty(final Channel channel, final int opCode, final long correlationId, final ByteBuf body,
        final Consumer<ByteBuf> work)
    {
        Fields.expectEnd(body);
        answer(channel, opCode, correlationId, work);
    }

    /** A request whose body is one name: a topic, a subscription or a group. */
    private void answerNamed(final Channel channel, final int opCode, final long correlationId, final ByteBuf body,
        final BiConsumer<ByteBuf, String> work)
    {
        final String name = Fields.readString(body);
        Fields.expectEnd(body);
        answer(channel, opCode, correlationId, out -> work.accept(out, name));
    }

    /** Runs {@code work} on the admin executor; it writes the response body, or its exception becomes the reply. */
    private void answer(final Channel channel, final int opCode, final long correlationId, final Consumer<ByteBuf> work)
    {
        executor.execute(() -> channel.writeAndFlush(respond(channel, opCode, correlationId, work), channel.voidPromise()));
    }

    static ByteBuf respond(final Channel channel, final int opCode, final long correlationId,
        final Consumer<ByteBuf> work)
    {
        final ByteBuf out = channel.alloc().ioBuffer(256);
        try
        {
            final int start = FrameDescriptor.begin(out, opCode, FrameDescriptor.FLAG_RESPONSE, correlationId);
            work.accept(out);
            FrameDescriptor.finish(out, start);
        }
        catch (final RuntimeException ex)
        {
            out.clear();
            ErrorDescriptor.encode(out, opCode, correlationId, ex);
        }
        return out;
    }
}
