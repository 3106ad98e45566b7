package io.spool.wire;

import io.netty.buffer.ByteBuf;
import io.spool.api.SpoolException;
import io.spool.api.queue.QueueException;

/**
 * Body of an error reply (a frame with {@link FrameDescriptor#FLAG_ERROR}). The details and the subject carry what
 * the client needs to rebuild the engine's exception with the same fields (for {@code OFFSET_OUT_OF_RANGE}: the
 * log in the subject, the requested, earliest and end offsets in the details); see {@link ErrorCode}.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-------------------------------+-------------------------------+
 *  |          Error Code           |           Detail 0           ...  0
 *  +-------------------------------+-------------------------------+
 * ...                 Detail 0, Detail 1, Detail 2 (int64 each)    ...
 *  +-------------------------------+-------------------------------+
 *  |  Subject Length (uint16)      |  Subject (UTF-8) ...         ...  26
 *  +-------------------------------+-------------------------------+
 *  |  Message Length (uint16)      |  Message (UTF-8) ...         ...
 *  +-------------------------------+-------------------------------+
 * </pre>
 * <p>
 * Stateless, thread-safe.
 */
public final class ErrorDescriptor
{
    public static final int CODE_OFFSET = 0;
    public static final int DETAILS_OFFSET = 2;
    public static final int DETAIL_COUNT = 3;
    public static final int SUBJECT_OFFSET = DETAILS_OFFSET + DETAIL_COUNT * Long.BYTES;

    private ErrorDescriptor()
    {
    }

    /** Writes a whole error reply frame for the request {@code opCode}/{@code correlationId}. */
    public static void encode(final ByteBuf out, final int opCode, final long correlationId, final ErrorCode code,
        final long detail0, final long detail1, final long detail2, final String subject, final String message)
    {
        final int start = FrameDescriptor.begin(out, opCode,
            FrameDescriptor.FLAG_RESPONSE | FrameDescriptor.FLAG_ERROR, correlationId);
        encodeBody(out, code, detail0, detail1, detail2, subject, message);
        FrameDescriptor.finish(out, start);
    }

    private static void encodeBody(final ByteBuf out, final ErrorCode code, final long detail0, final long detail1,
        final long detail2, final String subject, final String message)
    {
        out.writeShortLE(code.code());
        out.writeLongLE(detail0);
        out.writeLongLE(detail1);
        out.writeLongLE(detail2);
        Fields.writeString(out, subject);
        Fields.writeString(out, message);
    }

    /** Writes just the body for {@code error}, for responses that carry errors inside (per receipt). */
    public static void encodeBody(final ByteBuf out, final Throwable error)
    {
        final ErrorCode code = ErrorCode.of(error);
        final long[] details = code.details(error);
        encodeBody(out, code, details[0], details[1], details[2], code.subject(error),
            String.valueOf(error.getMessage()));
    }

    /** Writes the error reply that tells the client about {@code error}. */
    public static void encode(final ByteBuf out, final int opCode, final long correlationId, final Throwable error)
    {
        final ErrorCode code = ErrorCode.of(error);
        final long[] details = code.details(error);
        encode(out, opCode, correlationId, code, details[0], details[1], details[2], code.subject(error),
            String.valueOf(error.getMessage()));
    }

    /**
     * A refused settlement's error: the engine's own type, or a {@link QueueException} around an error the server
     * sent without one, so that every refusal a client hands on is a {@link SpoolException}.
     */
    public static SpoolException decodeRefusal(final ByteBuf body)
    {
        final RuntimeException error = decode(body);
        return error instanceof SpoolException ? (SpoolException)error : new QueueException(error.getMessage(), error);
    }

    /** Reads an error body (the reader index at the body) and rebuilds the exception it stands for. */
    public static RuntimeException decode(final ByteBuf body)
    {
        final ErrorCode code = ErrorCode.fromCode(body.readShortLE());
        final long detail0 = body.readLongLE();
        final long detail1 = body.readLongLE();
        final long detail2 = body.readLongLE();
        final String subject = Fields.readString(body);
        final String message = Fields.readString(body);
        return code.toException(subject, detail0, detail1, detail2, message);
    }
}
