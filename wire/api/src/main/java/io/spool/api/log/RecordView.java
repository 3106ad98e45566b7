package io.spool.api.log;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import static io.spool.api.log.RecordDescriptor.*;

/**
 * A flyweight over one stored frame. It copies nothing: the getters read the mapped segment, so a view is valid
 * only while the reader that produced it is inside its {@code onRecord} call. Not thread-safe.
 */
public final class RecordView
{
    private UnsafeBuffer buffer;
    private int frameOffset;
    private int frameLength;

    /**
     * Points this view at the frame starting at {@code frameOffset} of {@code segmentBuffer}. Keeps a reference,
     * copies nothing: this runs once per record read.
     */
    public RecordView wrap(final UnsafeBuffer segmentBuffer, final int frameOffset)
    {
        this.buffer = segmentBuffer;
        this.frameOffset = frameOffset;
        this.frameLength = segmentBuffer.getInt(frameOffset + FRAME_LENGTH_OFFSET);
        return this;
    }

    /** A reader entered a segment: the frames it hands out next lie in {@code segmentBuffer}. */
    public RecordView over(final UnsafeBuffer segmentBuffer)
    {
        this.buffer = segmentBuffer;
        return this;
    }

    /**
     * Points this view at another frame of the buffer it is {@link #over}, whose length the reader has just read:
     * a reader's per-record step.
     */
    public RecordView moveTo(final int frameOffset, final int frameLength)
    {
        this.frameOffset = frameOffset;
        this.frameLength = frameLength;
        return this;
    }

    public DirectBuffer buffer()
    {
        return buffer;
    }

    public int frameOffset()
    {
        return frameOffset;
    }

    public int frameLength()
    {
        return frameLength;
    }

    public long offset()
    {
        return buffer.getLong(frameOffset + OFFSET_OFFSET);
    }

    public long timestamp()
    {
        return buffer.getLong(frameOffset + TIMESTAMP_OFFSET);
    }

    public int version()
    {
        return buffer.getByte(frameOffset + VERSION_OFFSET);
    }

    public int attributes()
    {
        return buffer.getByte(frameOffset + ATTRIBUTES_OFFSET) & 0xFF;
    }

    public int checksum()
    {
        return buffer.getInt(frameOffset + CRC_OFFSET);
    }

    public int keyLength()
    {
        return buffer.getInt(frameOffset + KEY_LENGTH_OFFSET);
    }

    public int keyOffset()
    {
        return frameOffset + HEADER_LENGTH;
    }

    public int headersLength()
    {
        return buffer.getInt(frameOffset + HEADERS_LENGTH_OFFSET);
    }

    public int headersOffset()
    {
        return keyOffset() + Math.max(0, keyLength());
    }

    public int valueLength()
    {
        return buffer.getInt(frameOffset + VALUE_LENGTH_OFFSET);
    }

    /** The value ends the frame, so its start is found from the frame's end without reading the other lengths. */
    public int valueOffset()
    {
        return frameOffset + frameLength - Math.max(0, valueLength());
    }

    /** A copy of the key, or null for a null key. Allocates: not for hot paths. */
    public byte[] keyBytes()
    {
        return copy(keyOffset(), keyLength());
    }

    /** A copy of the value, or null for a null value. Allocates: not for hot paths. */
    public byte[] valueBytes()
    {
        return copy(valueOffset(), valueLength());
    }

    /** A copy of the encoded headers (see {@link HeadersCodec}). Allocates: not for hot paths. */
    public byte[] headersBytes()
    {
        return copy(headersOffset(), headersLength());
    }

    /** The first header of that name as UTF-8 text, or null. Allocates: not for hot paths. */
    public String header(final String name)
    {
        final byte[] value = headerBytes(name);
        return value == null ? null : new String(value, java.nio.charset.StandardCharsets.UTF_8);
    }

    /** The first header of that name, or null. Allocates: not for hot paths. */
    public byte[] headerBytes(final String name)
    {
        return HeadersCodec.find(buffer, headersOffset(), headersLength(), name);
    }

    private byte[] copy(final int offset, final int length)
    {
        if (length < 0)
        {
            return null;
        }
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return bytes;
    }

    @Override
    public String toString()
    {
        return "RecordView{offset=" + offset() + ", timestamp=" + timestamp() + ", keyLength=" + keyLength() +
            ", headersLength=" + headersLength() + ", valueLength=" + valueLength() + '}';
    }
}
