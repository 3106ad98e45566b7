package io.spool.wire.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.MockTicker;
import io.netty.util.concurrent.Ticker;
import io.spool.wire.ConnectionLostException;
import io.spool.wire.FrameDescriptor;
import io.spool.wire.Heartbeats;
import io.spool.wire.HelloDescriptor;
import io.spool.wire.OpCode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.ExecutionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The client sends a PING when it has written nothing for a heartbeat interval, and closes a connection the server
 * has been silent on for three, failing what still waits. Idle detection runs on Netty's ticker ({@link Heartbeats});
 * the embedded channel here runs on a mock ticker the test advances, so no time passes.
 */
class ClientHeartbeatTest
{
    private static final int INTERVAL_MILLIS = 5_000;
    private static final long IDLE_MILLIS = (long)INTERVAL_MILLIS * HelloDescriptor.IDLE_INTERVALS;

    private final MockTicker ticker = Ticker.newMockTicker();
    private final ClientConnection connection = new ClientConnection(10_000);
    private EmbeddedChannel channel;

    @BeforeEach
    void start()
    {
        channel = EmbeddedChannel.builder().ticker(ticker)
            .handlers(Heartbeats.clientIdleHandler(INTERVAL_MILLIS), new ClientHandler(connection)).build();
        connection.attach(channel);
    }

    @AfterEach
    void stop()
    {
        channel.finishAndReleaseAll();
    }

    @Test
    void aClientThatHasWrittenNothingForAnIntervalSendsAHeartbeat()
    {
        advance(INTERVAL_MILLIS - 1);
        assertThat((Object)channel.readOutbound()).isNull();

        advance(1);
        assertPing(channel.readOutbound());
        channel.writeInbound(pingAnswer());
        advance(INTERVAL_MILLIS);
        assertPing(channel.readOutbound());
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void aServerSilentForThreeIntervalsClosesTheConnectionAndFailsWhatWaits()
    {
        final FutureResponse<Object> waiting = new FutureResponse<>(body -> body);
        connection.send(ping(), waiting);
        advance(IDLE_MILLIS - INTERVAL_MILLIS);
        channel.writeInbound(pingAnswer());
        advance(IDLE_MILLIS - 1);
        assertThat(channel.isOpen()).as("the server's last answer came less than three intervals ago").isTrue();

        advance(1);
        assertThat(channel.isOpen()).isFalse();
        assertThat(connection.isOpen()).isFalse();
        assertThatThrownBy(waiting::get).isInstanceOf(ExecutionException.class)
            .cause().isInstanceOf(ConnectionLostException.class).hasMessageContaining("sent nothing");
    }

    private void advance(final long millis)
    {
        ticker.advanceMillis(millis);
        channel.runPendingTasks();
    }

    private static void assertPing(final ByteBuf frame)
    {
        try
        {
            assertThat(frame).isNotNull();
            assertThat(FrameDescriptor.opCode(frame)).isEqualTo(OpCode.PING);
            assertThat(FrameDescriptor.flags(frame)).isZero();
        }
        finally
        {
            frame.release();
        }
    }

    private static ByteBuf ping()
    {
        final ByteBuf frame = Unpooled.buffer();
        FrameDescriptor.finish(frame, FrameDescriptor.begin(frame, OpCode.PING, 0, 0));
        return frame;
    }

    /** The answer to the heartbeat the client sent with correlation id 0, which no request waits for. */
    private static ByteBuf pingAnswer()
    {
        final ByteBuf frame = Unpooled.buffer();
        FrameDescriptor.finish(frame, FrameDescriptor.begin(frame, OpCode.PING, FrameDescriptor.FLAG_RESPONSE, 0));
        return frame;
    }
}
