package io.spool.wire.server;

import io.netty.channel.Channel;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Decides whether the server reads a connection: not while it has too many unconfirmed publishes, and not while
 * its outbound buffer is above the high water mark (a client that does not read its answers must not make the
 * server queue ever more of them). Counts the connections of the server it pauses. Not thread-safe: used on the
 * connection's event loop.
 */
final class ReadGate
{
    private final Channel channel;
    private final AtomicInteger pausedConnections;
    private boolean confirmsBehind;
    private boolean answersUnread;
    private boolean paused;
    private boolean closed;

    ReadGate(final Channel channel, final AtomicInteger pausedConnections)
    {
        this.channel = channel;
        this.pausedConnections = pausedConnections;
    }

    void confirmsBehind(final boolean behind)
    {
        confirmsBehind = behind;
        apply();
    }

    boolean isConfirmsBehind()
    {
        return confirmsBehind;
    }

    void answersUnread(final boolean unread)
    {
        answersUnread = unread;
        apply();
    }

    /** The connection closed: it no longer counts as paused. */
    void close()
    {
        closed = true;
        count(false);
    }

    private void apply()
    {
        final boolean read = !confirmsBehind && !answersUnread;
        if (channel.config().isAutoRead() != read)
        {
            channel.config().setAutoRead(read);
        }
        if (!closed)
        {
            count(!read);
        }
    }

    private void count(final boolean pause)
    {
        if (paused != pause)
        {
            paused = pause;
            pausedConnections.addAndGet(pause ? 1 : -1);
        }
    }
}
