package io.spool.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.ByteToMessageDecoder;

/**
 * Gathers the bytes of a frame that straddles reads. Netty's merging cumulator grows its buffer to exactly what it
 * holds whenever a read does not fit, so a large frame arriving in many reads is copied again with each of them: a
 * 256 KiB publish frame read 64 KiB at a time is copied two and a quarter times over. This one grows the buffer
 * towards the length of the frame it starts with (the frame's first word), at most doubling what it holds, so each
 * byte of such a frame is copied about once, and a client that announces a large frame and sends little of it makes
 * the server hold no more than twice what it sent. Stateless, thread-safe.
 */
public final class FrameCumulator implements ByteToMessageDecoder.Cumulator
{
    public static final FrameCumulator INSTANCE = new FrameCumulator();

    private FrameCumulator()
    {
    }

    @Override
    public ByteBuf cumulate(final ByteBufAllocator alloc, final ByteBuf cumulation, final ByteBuf in)
    {
        if (cumulation == in)
        {
            in.release();
            return cumulation;
        }
        if (!cumulation.isReadable() && in.isContiguous())
        {
            cumulation.release();
            return in;
        }
        try
        {
            final int required = in.readableBytes();
            if (required <= cumulation.maxFastWritableBytes() && !cumulation.isReadOnly())
            {
                cumulation.writeBytes(in, in.readerIndex(), required);
                in.readerIndex(in.writerIndex());
                return cumulation;
            }
            final int held = cumulation.readableBytes();
            final ByteBuf grown = alloc.ioBuffer(capacity(cumulation, held, required));
            grown.writeBytes(cumulation, cumulation.readerIndex(), held).writeBytes(in, in.readerIndex(), required);
            in.readerIndex(in.writerIndex());
            cumulation.release();
            return grown;
        }
        finally
        {
            in.release();
        }
    }

    private static int capacity(final ByteBuf cumulation, final int held, final int required)
    {
        final int needed = held + required;
        if (held < Integer.BYTES)
        {
            return needed;
        }
        final long frameLength = cumulation.getIntLE(cumulation.readerIndex() + FrameDescriptor.FRAME_LENGTH_OFFSET);
        return (int)Math.max(needed, Math.min(frameLength, 2L * needed));
    }
}
