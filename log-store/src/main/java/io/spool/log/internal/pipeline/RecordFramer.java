package io.spool.log.internal.pipeline;

import io.spool.api.log.RecordDescriptor;
import io.spool.log.LogProducer;
import io.spool.log.internal.segment.Checksums;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.zip.CRC32C;

import static io.spool.api.log.RecordDescriptor.*;

/**
 * Frames records on the producer's thread: writes a whole {@link RecordDescriptor} frame into a ring slot and
 * computes its version 2 checksum there, leaving the offset blank for the log's writer, which only copies the frame
 * and stores it. Not thread-safe: one per {@link LogProducer}.
 */
public final class RecordFramer
{
    private final CRC32C crc = new CRC32C();

    /**
     * Frames one record at the end of {@code slot}'s frames, which must have room for it.
     *
     * @param timestamp epoch millis: the producer's own, or the append time it read from the store's clock.
     */
    public void frame(final AppendEvent slot, final long timestamp, final int attributes,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer headers, final int headersOffset, final int headersLength,
        final DirectBuffer value, final int valueOffset, final int valueLength)
    {
        final UnsafeBuffer into = slot.frames;
        final int at = slot.frameBytes;
        final int frameLength = frameLength(keyLength, headersLength, valueLength);
        final int aligned = align(frameLength);
        // The padding is zeroed first; whatever of those 8 bytes is not padding, the fields and body overwrite.
        into.putLong(at + aligned - Long.BYTES, 0L);
        into.putInt(at + FRAME_LENGTH_OFFSET, frameLength);
        into.putByte(at + VERSION_OFFSET, CURRENT_VERSION);
        into.putByte(at + ATTRIBUTES_OFFSET, (byte)attributes);
        into.putShort(at + RESERVED_OFFSET, (short)0);
        into.putInt(at + KEY_LENGTH_OFFSET, keyLength);
        into.putLong(at + OFFSET_OFFSET, 0L);
        into.putLong(at + TIMESTAMP_OFFSET, timestamp);
        into.putInt(at + HEADERS_LENGTH_OFFSET, headersLength);
        into.putInt(at + VALUE_LENGTH_OFFSET, valueLength);
        copyBody(into, at + HEADER_LENGTH, key, keyOffset, keyLength, headers, headersOffset, headersLength,
            value, valueOffset, valueLength);
        into.putInt(at + CRC_OFFSET, Checksums.record(crc, slot.framesView, at, frameLength, CURRENT_VERSION));
        slot.framed(aligned);
    }

    /**
     * Copies a record's body (key, headers, value, back to back; a length of -1 or 0 copies nothing) to {@code at}:
     * the one place that lays a body out, for a frame here and for a {@link io.spool.log.RecordBatch}'s staging
     * buffer, whose bodies are framed from where they lie.
     *
     * @return where the body ends.
     */
    public static int copyBody(final MutableDirectBuffer into, final int at,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer headers, final int headersOffset, final int headersLength,
        final DirectBuffer value, final int valueOffset, final int valueLength)
    {
        int body = at;
        if (keyLength > 0)
        {
            into.putBytes(body, key, keyOffset, keyLength);
            body += keyLength;
        }
        if (headersLength > 0)
        {
            into.putBytes(body, headers, headersOffset, headersLength);
            body += headersLength;
        }
        if (valueLength > 0)
        {
            into.putBytes(body, value, valueOffset, valueLength);
            body += valueLength;
        }
        return body;
    }
}
