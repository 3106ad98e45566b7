package io.spool.wire.server;

import io.netty.buffer.ByteBuf;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Points an Agrona buffer at bytes inside a Netty frame without copying them. Stateless, thread-safe.
 */
final class FrameBytes
{
    private FrameBytes()
    {
    }

    /**
     * Wraps {@code length} bytes of {@code frame} from {@code index}; the frame must have a memory address or a
     * backing array (the server copies other frames once on arrival).
     */
    static void wrap(final UnsafeBuffer target, final ByteBuf frame, final int index, final int length)
    {
        if (frame.hasMemoryAddress())
        {
            target.wrap(frame.memoryAddress() + index, length);
        }
        else
        {
            target.wrap(frame.array(), frame.arrayOffset() + index, length);
        }
    }

    static boolean isWrappable(final ByteBuf frame)
    {
        return frame.hasMemoryAddress() || frame.hasArray();
    }
}
