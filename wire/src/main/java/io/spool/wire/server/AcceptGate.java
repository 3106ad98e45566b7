package io.spool.wire.server;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sits on the listening channel and counts the connections it accepted that are not closed yet; at
 * {@code maxOpen} it stops accepting, and it starts again when one closes. Connections above the bound wait in the
 * kernel's accept queue, which holds no descriptor or memory of this process, so that any connect rate leaves the
 * server with at most {@code maxOpen} connections (and one accept burst) however slowly it gets round to closing
 * those the clients left. Thread-safe: accepts arrive on the listening channel's event loop, closes on the
 * connections' loops.
 */
final class AcceptGate extends ChannelInboundHandlerAdapter
{
    private final int maxOpen;
    private final AtomicInteger open = new AtomicInteger();
    /** Written only on the listening channel's event loop, where every pause and resume is decided. */
    private volatile boolean paused;
    private volatile Channel listening;

    AcceptGate(final int maxOpen)
    {
        this.maxOpen = maxOpen;
    }

    /** Accepted connections not closed yet, handshaken or not. */
    int openConnections()
    {
        return open.get();
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        final Channel accepted = (Channel)msg;
        listening = ctx.channel();
        accepted.closeFuture().addListener(closed -> closed());
        if (open.incrementAndGet() >= maxOpen && !paused)
        {
            paused = true;
            ctx.channel().config().setAutoRead(false);
            // A connection that closed before the pause was set saw none to undo: look again.
            resumeIfRoom();
        }
        ctx.fireChannelRead(msg);
    }

    /**
     * Any thread. The count goes down before the pause is read, and the listening loop sets the pause before it
     * reads the count, so one of the two sees the other and the gate cannot stay shut with room behind it.
     */
    private void closed()
    {
        open.decrementAndGet();
        if (paused)
        {
            listening.eventLoop().execute(this::resumeIfRoom);
        }
    }

    /** On the listening channel's event loop. */
    private void resumeIfRoom()
    {
        if (paused && open.get() < maxOpen)
        {
            paused = false;
            listening.config().setAutoRead(true);
        }
    }
}
