package io.spool.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.spool.wire.server.ServerConfig;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fetch parked at the end of its log waits on the engine's clock, moved here by hand: it is answered, with no
 * records, once the clock passes its wait and not a millisecond before. Frames on one connection are answered in
 * order and the server looks at the clock before each frame it handles, so a PING after a move of the clock shows
 * whether the move ended the wait.
 */
class FetchClockTest
{
    private static final byte[] TOPIC = "quiet".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;
    private final CachedEpochClock clock = new CachedEpochClock();
    private WireFixture fixture;

    @BeforeEach
    void start()
    {
        clock.update(1_000_000);
        fixture = new WireFixture(dir, ServerConfig.builder(), clock);
        fixture.spool().createTopic("quiet", WireFixture.topic(1));
    }

    @AfterEach
    void stop()
    {
        fixture.close();
    }

    @Test
    void aLongPollEndsWhenTheEngineClockPassesItsWaitAndNotBefore() throws Exception
    {
        try (RawConnection raw = new RawConnection(fixture.server().port()).hello(""))
        {
            raw.send(fetch(7, 60_000));
            raw.send(ping(8));
            assertAnswer(raw.readFrame(), OpCode.PING, 8);

            clock.advance(59_999);
            raw.send(ping(9));
            assertAnswer(raw.readFrame(), OpCode.PING, 9);

            clock.advance(1);
            raw.send(ping(10));
            final ByteBuffer answer = raw.readFrame();
            assertAnswer(answer, OpCode.FETCH, 7);
            assertThat(answer.getInt(FrameDescriptor.HEADER_LENGTH + FetchDescriptor.RESPONSE_COUNT_OFFSET)).isZero();
            assertThat(answer.getLong(FrameDescriptor.HEADER_LENGTH + FetchDescriptor.RESPONSE_END_OFFSET)).isZero();
            assertAnswer(raw.readFrame(), OpCode.PING, 10);
        }
    }

    @Test
    void aClockMovedByHandEndsAParkedWaitWithoutAnotherFrame() throws Exception
    {
        try (RawConnection raw = new RawConnection(fixture.server().port()).hello(""))
        {
            raw.send(fetch(11, 5_000));
            raw.send(ping(12));
            assertAnswer(raw.readFrame(), OpCode.PING, 12);

            clock.advance(5_000);
            assertAnswer(raw.readFrame(), OpCode.FETCH, 11);
        }
    }

    private static ByteBuf fetch(final long correlationId, final int maxWaitMillis)
    {
        final ByteBuf frame = Unpooled.buffer();
        FetchDescriptor.encodeRequest(frame, correlationId, TOPIC, 0, 0, 10, 1 << 16, maxWaitMillis);
        return frame;
    }

    private static ByteBuf ping(final long correlationId)
    {
        final ByteBuf frame = RawConnection.frame(OpCode.PING, correlationId);
        FrameDescriptor.finish(frame, 0);
        return frame;
    }

    private static void assertAnswer(final ByteBuffer frame, final int opCode, final long correlationId)
    {
        assertThat(frame).as("the server closed the connection").isNotNull();
        assertThat(frame.get(FrameDescriptor.FLAGS_OFFSET)).isEqualTo((byte)FrameDescriptor.FLAG_RESPONSE);
        assertThat(frame.getShort(FrameDescriptor.OP_CODE_OFFSET)).isEqualTo((short)opCode);
        assertThat(frame.getLong(FrameDescriptor.CORRELATION_ID_OFFSET)).isEqualTo(correlationId);
    }
}
