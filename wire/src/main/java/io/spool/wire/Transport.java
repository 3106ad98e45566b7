package io.spool.wire;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * The Netty transport both ends use: native epoll where the platform has it, NIO otherwise. Immutable, thread-safe.
 */
public enum Transport
{
    EPOLL,
    NIO;

    /** Epoll when {@code preferNative} and {@link Epoll#isAvailable()}, NIO otherwise. */
    public static Transport select(final boolean preferNative)
    {
        return preferNative && Epoll.isAvailable() ? EPOLL : NIO;
    }

    public EventLoopGroup newEventLoopGroup(final int threads, final String threadName)
    {
        final IoHandlerFactory factory = this == EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(threadName, true), factory);
    }

    public Class<? extends ServerSocketChannel> serverChannelType()
    {
        return this == EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    public Class<? extends SocketChannel> channelType()
    {
        return this == EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
    }
}
