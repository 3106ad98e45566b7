package io.spool.wire.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.spool.MetricSample;
import io.spool.Spool;
import io.spool.queue.SubscriptionSettings;
import io.spool.stream.TopicConfig;
import io.spool.wire.QueueDescriptor;
import io.spool.wire.ErrorDescriptor;
import io.spool.wire.Fields;
import io.spool.wire.FrameDescriptor;
import io.spool.wire.MetricsDescriptor;
import io.spool.wire.OpCode;
import io.spool.wire.TopicDescriptor;

import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The topic and subscription admin operations. Requests are decoded on the event loop; the work (which creates and deletes files)
 * runs on the server's admin executor so no connection's I/O waits on it. Thread-safe.
 */
final class AdminOperations
{
    private final Spool engine;
    private final Executor executor;
    private final Supplier<List<MetricSample>> metrics;

    AdminOperations(final Spool engine, final Executor executor, final Supplier<List<MetricSample>> metrics)
    {
        this.engine = engine;
        this.executor = executor;
        this.metrics = metrics;
    }

    static boolean handles(final int opCode)
    {
        return opCode == OpCode.CREATE_TOPIC || opCode == OpCode.DELETE_TOPIC ||
            opCode == OpCode.DESCRIBE_TOPIC || opCode == OpCode.LIST_TOPICS ||
            opCode == OpCode.CREATE_SUBSCRIPTION || opCode == OpCode.DELETE_SUBSCRIPTION ||
            opCode == OpCode.LIST_SUBSCRIPTIONS || opCode == OpCode.METRICS;
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
                answer(channel, opCode, correlationId, out -> engine.createTopic(name, config));
                break;
            }
            case OpCode.DELETE_TOPIC:
            {
                final String name = Fields.readString(body);
                Fields.expectEnd(body);
                answer(channel, opCode, correlationId, out -> engine.streams().deleteTopic(name));
                break;
            }
            case OpCode.DESCRIBE_TOPIC:
            {
                final String name = Fields.readString(body);
                Fields.expectEnd(body);
                answer(channel, opCode, correlationId,
                    out -> TopicDescriptor.encodeDescription(out, engine.streams().describeTopic(name)));
                break;
            }
            case OpCode.LIST_TOPICS:
            {
                Fields.expectEnd(body);
                answer(channel, opCode, correlationId,
                    out -> TopicDescriptor.encodeNames(out, engine.streams().listTopics()));
                break;
            }
            case OpCode.CREATE_SUBSCRIPTION:
            {
                final String name = Fields.readString(body);
                final String topic = Fields.readString(body);
                final SubscriptionSettings settings = QueueDescriptor.decodeSettings(body);
                Fields.expectEnd(body);
                answer(channel, opCode, correlationId, out -> engine.createSubscription(name, topic, settings));
                break;
            }
            case OpCode.DELETE_SUBSCRIPTION:
            {
                final String name = Fields.readString(body);
                Fields.expectEnd(body);
                answer(channel, opCode, correlationId, out -> engine.deleteSubscription(name));
                break;
            }
            case OpCode.METRICS:
            {
                Fields.expectEnd(body);
                answer(channel, opCode, correlationId, out -> MetricsDescriptor.encode(out, metrics.get()));
                break;
            }
            default:
            {
                Fields.expectEnd(body);
                answer(channel, opCode, correlationId,
                    out -> TopicDescriptor.encodeNames(out, engine.subscriptions()));
                break;
            }
        }
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
