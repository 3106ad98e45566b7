package io.spool.wire.server;

import io.netty.channel.Channel;

/**
 * Decides whether the server reads a connection: not while it has too many unconfirmed publishes, and not while
 * its outbound buffer is above the high water mark (a client that does not read its answers must not make the
 * server queue ever more of them). Not thread-safe: used on the connection's event loop.
 */
final class ReadGate
{
    private final Channel channel;
    private boolean confirmsBehind;
    private boolean answersUnread;

    ReadGate(final Channel channel)
    {
        this.channel = channel;
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

    private void apply()
    {
        final boolean read = !confirmsBehind && !answersUnread;
        if (channel.config().isAutoRead() != read)
        {
            channel.config().setAutoRead(read);
        }
    }
}
