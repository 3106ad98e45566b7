package io.spool.wire.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.spool.wire.ConnectionLostException;
import io.spool.wire.FrameDescriptor;

import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * One channel to the server and the requests waiting on it, matched to responses by correlation id. Every request
 * still waiting when the channel closes fails with {@link ConnectionLostException}. Thread-safe.
 */
final class ClientConnection
{
    private volatile Channel channel;
    private final int requestTimeoutMillis;
    private final Map<Long, ResponseHandler> pending = new ConcurrentHashMap<>();
    private final AtomicLong nextCorrelationId = new AtomicLong(1);
    private final Map<Integer, PushHandler> pushHandlers = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicInteger nextConsumerTag =
        new java.util.concurrent.atomic.AtomicInteger(1);
    private volatile boolean closed;
    private volatile String closeReason = "the connection closed";
    private boolean closeReasonGiven;

    ClientConnection(final int requestTimeoutMillis)
    {
        this.requestTimeoutMillis = requestTimeoutMillis;
    }

    /** Event loop, while the channel is being set up: the connection's channel from now on. */
    void attach(final Channel channel)
    {
        this.channel = channel;
    }

    ByteBufAllocator alloc()
    {
        return channel.alloc();
    }

    EventLoop eventLoop()
    {
        return channel.eventLoop();
    }

    Channel channel()
    {
        return channel;
    }

    boolean isOpen()
    {
        return !closed && channel.isActive();
    }

    int requestTimeoutMillis()
    {
        return requestTimeoutMillis;
    }

    /**
     * Stamps a fresh correlation id into {@code frame} (which starts at its reader index), registers
     * {@code handler} and writes the frame.
     */
    void send(final ByteBuf frame, final ResponseHandler handler)
    {
        final long correlationId = nextCorrelationId.getAndIncrement();
        frame.setLongLE(frame.readerIndex() + FrameDescriptor.CORRELATION_ID_OFFSET, correlationId);
        pending.put(correlationId, handler);
        if (closed)
        {
            frame.release();
            if (pending.remove(correlationId) != null)
            {
                handler.onError(new ConnectionLostException(closeReason));
            }
            return;
        }
        channel.writeAndFlush(frame, channel.voidPromise());
    }

    /** Writes a frame that expects no response (correlation id 0). */
    void sendOneWay(final ByteBuf frame)
    {
        if (closed)
        {
            frame.release();
            throw new ConnectionLostException(closeReason);
        }
        channel.writeAndFlush(frame, channel.voidPromise());
    }

    /** Sends {@code frame} and waits for its response, decoded by {@code decoder}; rethrows the server's error. */
    <T> T call(final ByteBuf frame, final Function<ByteBuf, T> decoder, final long extraWaitMillis)
    {
        final FutureResponse<T> response = new FutureResponse<>(decoder);
        send(frame, response);
        try
        {
            return response.get(requestTimeoutMillis + extraWaitMillis, TimeUnit.MILLISECONDS);
        }
        catch (final ExecutionException ex)
        {
            throw rethrowable(ex.getCause());
        }
        catch (final TimeoutException ex)
        {
            throw new ConnectionLostException("no answer from the server within " +
                (requestTimeoutMillis + extraWaitMillis) + " ms");
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new ConnectionLostException("interrupted while waiting for the server");
        }
    }

    static RuntimeException rethrowable(final Throwable error)
    {
        final Throwable cause = error instanceof CompletionException && error.getCause() != null ?
            error.getCause() : error;
        return cause instanceof RuntimeException ? (RuntimeException)cause : new CompletionException(cause);
    }

    /** Registers the receiver of a new consumer's pushed frames and returns its tag. */
    int registerConsumer(final PushHandler handler)
    {
        final int tag = nextConsumerTag.getAndIncrement();
        pushHandlers.put(tag, handler);
        return tag;
    }

    void unregisterConsumer(final int tag)
    {
        pushHandlers.remove(tag);
    }

    /** Event loop: the receiver of frames pushed for {@code tag}, or null. */
    PushHandler pushHandler(final int tag)
    {
        return pushHandlers.get(tag);
    }

    /** Event loop: the handler for a response, which no longer waits. */
    ResponseHandler take(final long correlationId)
    {
        return pending.remove(correlationId);
    }

    /**
     * Event loop: remembers why the connection is about to close; the first reason stays (the server's error reply
     * comes before the reset that may follow it).
     */
    void closingBecause(final String reason)
    {
        if (!closeReasonGiven)
        {
            closeReasonGiven = true;
            closeReason = reason;
        }
    }

    /** Event loop: the channel closed; fails every waiting request. */
    void onClosed()
    {
        closed = true;
        final ConnectionLostException error = new ConnectionLostException(closeReason);
        for (final Long correlationId : pending.keySet())
        {
            final ResponseHandler handler = pending.remove(correlationId);
            if (handler != null)
            {
                handler.onError(error);
            }
        }
    }

    void close()
    {
        channel.close().syncUninterruptibly();
    }
}
