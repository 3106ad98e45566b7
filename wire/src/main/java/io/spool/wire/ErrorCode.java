package io.spool.wire;

import io.spool.log.BackPressureException;
import io.spool.log.EngineClosedException;
import io.spool.log.OffsetOutOfRangeException;
import io.spool.log.RecordTooLargeException;
import io.spool.log.SpoolException;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The error codes of an error reply and their mapping to the engine's exception types both ways: the server turns
 * an exception into a code, details and a subject ({@link #of}, {@link #details}, {@link #subject}); the client
 * rebuilds the same exception type from them ({@link #toException}), so code written against the embedded engine
 * catches the same exceptions over the network. Immutable, thread-safe.
 */
public enum ErrorCode
{
    /** An unexpected failure inside the server; the message says what. */
    INTERNAL(1, null),
    MALFORMED_FRAME(2, null),
    UNSUPPORTED_VERSION(3, null),
    UNKNOWN_OPERATION(4, null),
    FRAME_TOO_LARGE(5, null),
    NOT_AUTHENTICATED(6, null),
    AUTHENTICATION_FAILED(7, AuthenticationException.class),
    TOO_MANY_CONNECTIONS(8, null),
    INVALID_ARGUMENT(20, IllegalArgumentException.class),
    OFFSET_OUT_OF_RANGE(30, OffsetOutOfRangeException.class),
    RECORD_TOO_LARGE(31, RecordTooLargeException.class),
    ENGINE_CLOSED(32, EngineClosedException.class),
    BACK_PRESSURE(33, BackPressureException.class),
    /** Any other engine error: rebuilt as a plain {@link SpoolException} with the server's message. */
    SPOOL(99, SpoolException.class);

    private static final Pattern RECORD_TOO_LARGE_MESSAGE =
        Pattern.compile("record of (\\d+) bytes .* exceeds maxRecordBytes (\\d+) of log (.*)");
    private static final String CLOSED_SUFFIX = " is closed";
    private static final ErrorCode[] BY_CODE = new ErrorCode[128];

    static
    {
        for (final ErrorCode code : values())
        {
            BY_CODE[code.code] = code;
        }
    }

    private final int code;
    private final Class<? extends Throwable> type;

    ErrorCode(final int code, final Class<? extends Throwable> type)
    {
        this.code = code;
        this.type = type;
    }

    public int code()
    {
        return code;
    }

    /** The code for {@code code}; an unknown one (from a newer server) reads as {@link #INTERNAL}. */
    public static ErrorCode fromCode(final int code)
    {
        final ErrorCode known = code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
        return known == null ? INTERNAL : known;
    }

    /** The code that stands for {@code error}: the most specific type it is an instance of. */
    public static ErrorCode of(final Throwable error)
    {
        if (error instanceof ProtocolException)
        {
            return ((ProtocolException)error).code();
        }
        for (final ErrorCode candidate : values())
        {
            if (candidate.type != null && candidate != SPOOL && candidate.type.isInstance(error))
            {
                return candidate;
            }
        }
        return error instanceof SpoolException ? SPOOL : INTERNAL;
    }

    /** The numbers the client needs to rebuild {@code error} (zeros where the type carries none). */
    public long[] details(final Throwable error)
    {
        if (this == OFFSET_OUT_OF_RANGE)
        {
            final OffsetOutOfRangeException ex = (OffsetOutOfRangeException)error;
            return new long[]{ex.requestedOffset(), ex.earliestOffset(), ex.endOffset()};
        }
        if (this == RECORD_TOO_LARGE)
        {
            final Matcher matcher = RECORD_TOO_LARGE_MESSAGE.matcher(String.valueOf(error.getMessage()));
            if (matcher.matches())
            {
                return new long[]{Long.parseLong(matcher.group(1)), Long.parseLong(matcher.group(2)), 0};
            }
        }
        return new long[3];
    }

    /** The name the exception was built with (a log name, the closed thing), or empty. */
    public String subject(final Throwable error)
    {
        final String message = String.valueOf(error.getMessage());
        if (this == OFFSET_OUT_OF_RANGE || this == RECORD_TOO_LARGE)
        {
            final int at = message.lastIndexOf(" log ");
            if (this == RECORD_TOO_LARGE)
            {
                return at < 0 ? "" : message.substring(at + " log ".length());
            }
            final int colon = message.lastIndexOf(": the earliest offset");
            return at < 0 || colon < at ? "" : message.substring(at + " log ".length(), colon);
        }
        if (this == ENGINE_CLOSED && message.endsWith(CLOSED_SUFFIX))
        {
            return message.substring(0, message.length() - CLOSED_SUFFIX.length());
        }
        return "";
    }

    /** Rebuilds the exception the server reported. */
    public RuntimeException toException(final String subject, final long detail0, final long detail1,
        final long detail2, final String message)
    {
        switch (this)
        {
            case AUTHENTICATION_FAILED:
                return new AuthenticationException(message);
            case INVALID_ARGUMENT:
                return new IllegalArgumentException(message);
            case OFFSET_OUT_OF_RANGE:
                return new OffsetOutOfRangeException(subject, detail0, detail1, detail2);
            case RECORD_TOO_LARGE:
                return new RecordTooLargeException(subject, (int)detail0, (int)detail1);
            case ENGINE_CLOSED:
                return new EngineClosedException(subject);
            case BACK_PRESSURE:
                return new BackPressureException(message);
            case SPOOL:
            case INTERNAL:
                return new SpoolException(message);
            default:
                return new ProtocolException(this, message);
        }
    }
}
