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
 * The Netty transport both ends use: native epoll where the platform has it and the JVM lets Netty load it without
 * a warning, NIO otherwise. Immutable, thread-safe.
 * <p>
 * Design note: from Java 24 the JDK warns when a module without native access loads a native library (JEP 472), so
 * there epoll is used only where native access is enabled ({@code --enable-native-access=ALL-UNNAMED}, or the
 * {@code Enable-Native-Access} attribute of the {@code spool} jar): an application that puts Spool on its class
 * path with no flags gets NIO and no warning.
 */
public enum Transport
{
    EPOLL,
    NIO;

    /** Epoll when {@code preferNative}, native access is enabled and {@link Epoll#isAvailable()}, NIO otherwise. */
    public static Transport select(final boolean preferNative)
    {
        return preferNative && nativeAccessEnabled(Runtime.version().feature(), Epoll.class.getModule()) &&
            Epoll.isAvailable() ? EPOLL : NIO;
    }

    /**
     * Whether {@code module} may load a native library without the JDK warning: always before Java 24, and from
     * then on when its native access is enabled ({@code Module.isNativeAccessEnabled}, Java 22 and later).
     */
    static boolean nativeAccessEnabled(final int javaFeatureVersion, final Module module)
    {
        if (javaFeatureVersion < 24)
        {
            return true;
        }
        try
        {
            return (Boolean)Module.class.getMethod("isNativeAccessEnabled").invoke(module);
        }
        catch (final ReflectiveOperationException ex)
        {
            return false;
        }
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
