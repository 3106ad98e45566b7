package io.spool.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class FrameCumulatorTest
{
    @Test
    void framesCutIntoReadsOfAnySizeComeOutWhole()
    {
        final Random random = new Random(7);
        final List<byte[]> frames = new ArrayList<>();
        final ByteBuf stream = Unpooled.buffer();
        for (int i = 0; i < 200; i++)
        {
            final ByteBuf frame = Unpooled.buffer();
            final int start = FrameDescriptor.begin(frame, OpCode.PING, 0, i);
            final byte[] body = new byte[random.nextInt(3) == 0 ? random.nextInt(300_000) : random.nextInt(200)];
            random.nextBytes(body);
            frame.writeBytes(body);
            FrameDescriptor.finish(frame, start);
            final byte[] bytes = new byte[frame.readableBytes()];
            frame.readBytes(bytes);
            frames.add(bytes);
            stream.writeBytes(bytes);
        }
        final EmbeddedChannel channel = new EmbeddedChannel(FrameDecoderFactory.newDecoder(1 << 20));
        while (stream.isReadable())
        {
            channel.writeInbound(stream.readRetainedSlice(Math.min(stream.readableBytes(), 1 + random.nextInt(70_000))));
        }
        stream.release();

        for (final byte[] expected : frames)
        {
            final ByteBuf frame = channel.readInbound();
            final byte[] actual = new byte[frame.readableBytes()];
            frame.readBytes(actual);
            frame.release();
            assertThat(actual).isEqualTo(expected);
        }
        assertThat((Object)channel.readInbound()).isNull();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void aFrameIsGatheredInOneBufferSizedForItWhileAnAnnouncedLengthBuysNoMoreThanTwiceWhatCame()
    {
        final ByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
        final ByteBuf first = full(64).writeIntLE(100_000).writeZero(60);
        final ByteBuf grown = FrameCumulator.INSTANCE.cumulate(alloc, first, full(64).writeZero(64));
        assertThat(grown.readableBytes()).isEqualTo(128);
        assertThat(grown.capacity()).as("twice what came, not the announced 100,000").isEqualTo(256);

        final ByteBuf whole = FrameCumulator.INSTANCE.cumulate(alloc, full(40_000).writeIntLE(100_000)
            .writeZero(39_996), full(20_000).writeZero(20_000));
        assertThat(whole.capacity()).as("the announced frame, within twice what came").isEqualTo(100_000);
        final ByteBuf same = FrameCumulator.INSTANCE.cumulate(alloc, whole, full(40_000).writeZero(40_000));
        assertThat(same).as("the rest of the frame goes into the same buffer").isSameAs(whole);
        assertThat(same.readableBytes()).isEqualTo(100_000);
        same.release();
        grown.release();
    }

    /** A read buffer that has no room beyond its size, as a socket read leaves it once filled. */
    private static ByteBuf full(final int size)
    {
        return Unpooled.buffer(size, size);
    }
}
