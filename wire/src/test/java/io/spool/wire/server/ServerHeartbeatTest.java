package io.spool.wire.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.MockTicker;
import io.netty.util.concurrent.Ticker;
import io.spool.Spool;
import io.spool.wire.FrameDescriptor;
import io.spool.wire.Heartbeats;
import io.spool.wire.HelloDescriptor;
import io.spool.wire.OpCode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server closes a connection it has read nothing from for three heartbeat intervals, and keeps one that sends
 * heartbeats. Idle detection runs on Netty's ticker ({@link Heartbeats}); the embedded channel here runs on a mock
 * ticker the test advances, so no time passes.
 */
class ServerHeartbeatTest
{
    private static final int INTERVAL_MILLIS = 5_000;
    private static final long IDLE_MILLIS = (long)INTERVAL_MILLIS * HelloDescriptor.IDLE_INTERVALS;

    @TempDir
    Path dir;
    private Spool spool;
    private ExecutorService executor;
    private final MockTicker ticker = Ticker.newMockTicker();
    private EmbeddedChannel channel;

    @BeforeEach
    void start()
    {
        spool = Spool.builder(dir).backgroundMaintenance(false).open();
        executor = Executors.newSingleThreadExecutor();
        final ServerContext server = new ServerContext(
            ServerConfig.builder().heartbeatIntervalMillis(INTERVAL_MILLIS).build(), spool,
            new AdminOperations(spool, executor, spool::metrics, null, null, HeldPartitions.ALL),
            new ExchangeOperations(spool.router(), executor),
            executor, executor, new AtomicInteger(), new RequestCounters(), new ConnectionLimits(1, 1), null,
            HeldPartitions.ALL);
        channel = EmbeddedChannel.builder().ticker(ticker)
            .handlers(Heartbeats.serverIdleHandler(INTERVAL_MILLIS), new ConnectionHandler(server)).build();
        channel.writeInbound(hello());
        assertAnswer(OpCode.HELLO);
    }

    @AfterEach
    void stop()
    {
        channel.finishAndReleaseAll();
        executor.shutdownNow();
        spool.close();
    }

    @Test
    void aConnectionSilentForThreeIntervalsIsClosed()
    {
        advance(IDLE_MILLIS - 1);
        assertThat(channel.isOpen()).isTrue();

        advance(1);
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void aConnectionThatSendsHeartbeatsStays()
    {
        for (int beat = 0; beat < 10; beat++)
        {
            advance(INTERVAL_MILLIS);
            channel.writeInbound(ping());
            assertAnswer(OpCode.PING);
        }
        advance(IDLE_MILLIS - 1);
        assertThat(channel.isOpen()).isTrue();

        advance(1);
        assertThat(channel.isOpen()).isFalse();
    }

    private void advance(final long millis)
    {
        ticker.advanceMillis(millis);
        channel.runPendingTasks();
    }

    private void assertAnswer(final int opCode)
    {
        final ByteBuf answer = channel.readOutbound();
        try
        {
            assertThat(answer).isNotNull();
            assertThat(FrameDescriptor.flags(answer)).isEqualTo(FrameDescriptor.FLAG_RESPONSE);
            assertThat(FrameDescriptor.opCode(answer)).isEqualTo(opCode);
        }
        finally
        {
            answer.release();
        }
    }

    private static ByteBuf hello()
    {
        final ByteBuf frame = Unpooled.buffer();
        HelloDescriptor.encodeRequest(frame, 1, "", "embedded");
        return frame;
    }

    private static ByteBuf ping()
    {
        final ByteBuf frame = Unpooled.buffer();
        FrameDescriptor.finish(frame, FrameDescriptor.begin(frame, OpCode.PING, 0, 2));
        return frame;
    }
}
