package io.spool.wire.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.spool.api.InvalidRequestException;
import io.spool.api.stream.ProducerRecord;
import io.spool.wire.ErrorCode;
import io.spool.wire.ErrorDescriptor;
import io.spool.wire.Fields;
import io.spool.wire.FrameDescriptor;
import io.spool.wire.OpCode;
import io.spool.wire.ProtocolException;
import io.spool.wire.SequencedPublishDescriptor;

import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;

/**
 * The PUBLISH_SEQUENCED operation of one connection: hands each batch, with its producer id and sequence, to the
 * node's {@link ReplicatedPublishes} and answers once the cluster confirms it. A server that is no cluster node
 * refuses it, since it could not keep the promise that a retry is stored once.
 * <p>
 * Batches are handed over in the order the connection's frames arrive, so a producer's sequences of a partition
 * reach the partition's replication in order. Answers come on the replication's threads and are written from the
 * connection's event loop. Not thread-safe: used on the connection's event loop.
 */
final class SequencedPublishSession
{
    private final Channel channel;
    private final PublishSession records;
    private final ReplicatedPublishes replicated;

    SequencedPublishSession(final Channel channel, final PublishSession records, final ReplicatedPublishes replicated)
    {
        this.channel = channel;
        this.records = records;
        this.replicated = replicated;
    }

    /**
     * Publishes the batch of a PUBLISH_SEQUENCED body (reader index after the frame header).
     *
     * @throws InvalidRequestException when this server is no cluster node.
     */
    void publish(final long correlationId, final ByteBuf body)
    {
        final long producerId = body.readLongLE();
        final long sequence = body.readLongLE();
        final String topic = Fields.readString(body);
        final int partition = body.readIntLE();
        final int count = body.readIntLE();
        if (count < 1)
        {
            throw new ProtocolException(ErrorCode.MALFORMED_FRAME, "record count must be at least 1, was " + count);
        }
        if (producerId < 0)
        {
            throw new ProtocolException(ErrorCode.MALFORMED_FRAME, "producer id must not be negative, was " +
                producerId);
        }
        final List<ProducerRecord> batch = records.copyRecords(topic, partition, body, count);
        if (replicated == null)
        {
            throw new InvalidRequestException("this server is no cluster node: PUBLISH_SEQUENCED is for a cluster's " +
                "replicated topics; publish here with PUBLISH (RemoteProducer)");
        }
        replicated.publish(topic, partition, producerId, sequence, batch).whenComplete((offsets, failure) ->
            answer(correlationId, offsets, failure));
    }

    private void answer(final long correlationId, final long[] offsets, final Throwable failure)
    {
        try
        {
            channel.eventLoop().execute(() ->
            {
                final ByteBuf out;
                if (failure != null)
                {
                    out = channel.alloc().ioBuffer(256);
                    ErrorDescriptor.encode(out, OpCode.PUBLISH_SEQUENCED, correlationId,
                        failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() :
                            failure);
                }
                else
                {
                    out = channel.alloc().ioBuffer(FrameDescriptor.HEADER_LENGTH + 4 + offsets.length * Long.BYTES);
                    SequencedPublishDescriptor.encodeResponse(out, correlationId, offsets);
                }
                channel.writeAndFlush(out, channel.voidPromise());
            });
        }
        catch (final RejectedExecutionException ex)
        {
            // the server is shutting down and its connections with it: nobody is left to answer
        }
    }
}
