package io.spool.wire;

import io.netty.handler.codec.LengthFieldBasedFrameDecoder;

import java.nio.ByteOrder;

/**
 * Builds the decoder that cuts the byte stream into frames by their length word ({@link FrameDescriptor}). It fails
 * as soon as a length above the limit is read, without buffering the oversized frame, and gathers a frame that
 * straddles reads with {@link FrameCumulator}. Stateless, thread-safe.
 */
public final class FrameDecoderFactory
{
    private FrameDecoderFactory()
    {
    }

    public static LengthFieldBasedFrameDecoder newDecoder(final int maxFrameLength)
    {
        final LengthFieldBasedFrameDecoder decoder = new LengthFieldBasedFrameDecoder(ByteOrder.LITTLE_ENDIAN,
            maxFrameLength, FrameDescriptor.FRAME_LENGTH_OFFSET, Integer.BYTES, -Integer.BYTES, 0, true);
        decoder.setCumulator(FrameCumulator.INSTANCE);
        return decoder;
    }
}
