package io.spool.wire;

import io.spool.api.InvalidRequestException;
import io.spool.api.EngineClosedException;
import io.spool.api.SpoolException;
import io.spool.api.log.BackPressureException;
import io.spool.api.log.OffsetOutOfRangeException;
import io.spool.api.log.RecordTooLargeException;
import io.spool.api.queue.AlreadySettledException;
import io.spool.api.queue.InvalidSettingsException;
import io.spool.api.queue.QueueException;
import io.spool.api.queue.QueueFullException;
import io.spool.api.queue.StaleReceiptException;
import io.spool.api.queue.SubscriptionExistsException;
import io.spool.api.queue.UnknownDeliveryException;
import io.spool.api.queue.UnknownSubscriptionException;
import io.spool.api.routing.InvalidRoutingException;
import io.spool.api.routing.UnknownExchangeException;
import io.spool.api.stream.CommitFailedException;
import io.spool.api.stream.IllegalClientStateException;
import io.spool.api.stream.InvalidGroupException;
import io.spool.api.stream.InvalidTopicException;
import io.spool.api.stream.NoOffsetForPartitionException;
import io.spool.api.stream.PartitionNotAssignedException;
import io.spool.api.stream.StreamException;
import io.spool.api.stream.TopicExistsException;
import io.spool.api.stream.UnknownGroupException;
import io.spool.api.stream.UnknownMemberException;
import io.spool.api.stream.UnknownPartitionException;
import io.spool.api.stream.UnknownTopicException;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The error codes of an error reply and their mapping to the engine's exception types both ways: the server turns
 * an exception into a code, details and a subject ({@link #of}, {@link #details}, {@link #subject}); the client
 * rebuilds the same exception type from them ({@link #toException}), so code written against the embedded engine
 * catches the same exceptions over the network. Types whose constructor builds the message from names or numbers
 * travel as those names (the subject) and numbers (the details). Immutable, thread-safe.
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
    UNKNOWN_TOPIC(40, UnknownTopicException.class),
    INVALID_TOPIC(41, InvalidTopicException.class),
    TOPIC_EXISTS(42, TopicExistsException.class),
    UNKNOWN_PARTITION(43, UnknownPartitionException.class),
    INVALID_REQUEST(44, InvalidRequestException.class),
    UNKNOWN_MEMBER(45, UnknownMemberException.class),
    INVALID_GROUP(46, InvalidGroupException.class),
    COMMIT_FAILED(47, CommitFailedException.class),
    PARTITION_NOT_ASSIGNED(48, PartitionNotAssignedException.class),
    NO_OFFSET_FOR_PARTITION(49, NoOffsetForPartitionException.class),
    ILLEGAL_CLIENT_STATE(50, IllegalClientStateException.class),
    UNKNOWN_GROUP(52, UnknownGroupException.class),
    UNKNOWN_SUBSCRIPTION(60, UnknownSubscriptionException.class),
    SUBSCRIPTION_EXISTS(61, SubscriptionExistsException.class),
    STALE_RECEIPT(62, StaleReceiptException.class),
    UNKNOWN_DELIVERY(63, UnknownDeliveryException.class),
    ALREADY_SETTLED(64, AlreadySettledException.class),
    INVALID_SETTINGS(66, InvalidSettingsException.class),
    UNKNOWN_EXCHANGE(67, UnknownExchangeException.class),
    INVALID_ROUTING(68, InvalidRoutingException.class),
    QUEUE_FULL(69, QueueFullException.class),
    /** Any other stream layer error: rebuilt as a plain {@link StreamException}. */
    STREAM(97, StreamException.class),
    /** Any other queue layer error: rebuilt as a plain {@link QueueException}. */
    QUEUE(98, QueueException.class),
    /** Any other engine error: rebuilt as a plain {@link SpoolException} with the server's message. */
    SPOOL(99, SpoolException.class);

    private static final Pattern RECORD_TOO_LARGE_MESSAGE =
        Pattern.compile("record of (\\d+) bytes .* exceeds maxRecordBytes (\\d+) of log (.*)");
    private static final Pattern OFFSET_OUT_OF_RANGE_MESSAGE =
        Pattern.compile("offset -?\\d+ is out of range for log (.*): the earliest offset is .*");
    private static final Pattern QUOTED = Pattern.compile("'([^']*)'");
    private static final String CLOSED_SUFFIX = " is closed";
    private static final char SUBJECT_SEPARATOR = '\n';
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

    /** The code that stands for {@code error}: the first whose type {@code error} is an instance of. */
    public static ErrorCode of(final Throwable error)
    {
        if (error instanceof ProtocolException)
        {
            return ((ProtocolException)error).code();
        }
        for (final ErrorCode candidate : values())
        {
            if (candidate.type != null && candidate.type.isInstance(error))
            {
                return candidate;
            }
        }
        return INTERNAL;
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

    /** The names the exception was built from (a log, the closed thing, a subscription), or empty. */
    public String subject(final Throwable error)
    {
        final String message = String.valueOf(error.getMessage());
        switch (this)
        {
            case OFFSET_OUT_OF_RANGE:
                return group(OFFSET_OUT_OF_RANGE_MESSAGE.matcher(message), 1);
            case RECORD_TOO_LARGE:
                return group(RECORD_TOO_LARGE_MESSAGE.matcher(message), 3);
            case ENGINE_CLOSED:
                return message.endsWith(CLOSED_SUFFIX) ?
                    message.substring(0, message.length() - CLOSED_SUFFIX.length()) : message;
            case UNKNOWN_SUBSCRIPTION:
            case UNKNOWN_EXCHANGE:
                return quoted(message, 0);
            case QUEUE_FULL:
                return ((QueueFullException)error).subscription();
            case SUBSCRIPTION_EXISTS:
                return quoted(message, 0) + SUBJECT_SEPARATOR + quoted(message, 1);
            default:
                return "";
        }
    }

    /** Rebuilds the exception the server reported. */
    public RuntimeException toException(final String subject, final long detail0, final long detail1,
        final long detail2, final String message)
    {
        switch (this)
        {
            case AUTHENTICATION_FAILED: return new AuthenticationException(message);
            case INVALID_ARGUMENT: return new IllegalArgumentException(message);
            case OFFSET_OUT_OF_RANGE: return new OffsetOutOfRangeException(subject, detail0, detail1, detail2);
            case RECORD_TOO_LARGE: return new RecordTooLargeException(subject, (int)detail0, (int)detail1);
            case ENGINE_CLOSED: return new EngineClosedException(subject);
            case BACK_PRESSURE: return new BackPressureException(message);
            case UNKNOWN_TOPIC: return new UnknownTopicException(message);
            case INVALID_TOPIC: return new InvalidTopicException(message);
            case TOPIC_EXISTS: return new TopicExistsException(message);
            case UNKNOWN_PARTITION: return new UnknownPartitionException(message);
            case INVALID_REQUEST: return new InvalidRequestException(message);
            case UNKNOWN_MEMBER: return new UnknownMemberException(message);
            case INVALID_GROUP: return new InvalidGroupException(message);
            case COMMIT_FAILED: return new CommitFailedException(message);
            case PARTITION_NOT_ASSIGNED: return new PartitionNotAssignedException(message);
            case NO_OFFSET_FOR_PARTITION: return new NoOffsetForPartitionException(message);
            case ILLEGAL_CLIENT_STATE: return new IllegalClientStateException(message);
            case UNKNOWN_GROUP: return new UnknownGroupException(message);
            case UNKNOWN_SUBSCRIPTION: return new UnknownSubscriptionException(subject);
            case SUBSCRIPTION_EXISTS:
            {
                final int split = subject.indexOf(SUBJECT_SEPARATOR);
                return split < 0 ? new SubscriptionExistsException(subject, "") :
                    new SubscriptionExistsException(subject.substring(0, split), subject.substring(split + 1));
            }
            case STALE_RECEIPT: return new StaleReceiptException(message);
            case UNKNOWN_DELIVERY: return new UnknownDeliveryException(message);
            case ALREADY_SETTLED: return new AlreadySettledException(message);
            case INVALID_SETTINGS: return new InvalidSettingsException(message);
            case UNKNOWN_EXCHANGE: return new UnknownExchangeException(subject);
            case INVALID_ROUTING: return new InvalidRoutingException(message);
            case QUEUE_FULL: return new QueueFullException(subject, message);
            case STREAM: return new StreamException(message);
            case QUEUE: return new QueueException(message);
            case SPOOL:
            case INTERNAL:
                return new SpoolException(message);
            default:
                return new ProtocolException(this, message);
        }
    }

    private static String group(final Matcher matcher, final int group)
    {
        return matcher.matches() ? matcher.group(group) : "";
    }

    private static String quoted(final String message, final int index)
    {
        final Matcher matcher = QUOTED.matcher(message);
        for (int i = 0; i <= index; i++)
        {
            if (!matcher.find())
            {
                return "";
            }
        }
        return matcher.group(1);
    }
}
