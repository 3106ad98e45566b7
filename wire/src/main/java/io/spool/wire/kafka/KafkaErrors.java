package io.spool.wire.kafka;

import io.spool.api.InvalidRequestException;
import io.spool.api.EngineClosedException;
import io.spool.api.log.BackPressureException;
import io.spool.api.log.OffsetOutOfRangeException;
import io.spool.api.log.RecordTooLargeException;
import io.spool.api.queue.QueueFullException;
import io.spool.api.stream.CommitFailedException;
import io.spool.api.stream.InvalidGroupException;
import io.spool.api.stream.InvalidTopicException;
import io.spool.api.stream.TopicExistsException;
import io.spool.api.stream.UnknownMemberException;
import io.spool.api.stream.UnknownPartitionException;
import io.spool.api.stream.UnknownTopicException;
import org.apache.kafka.common.protocol.Errors;

import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;

/**
 * The Kafka error a client understands for each of Spool's exceptions: retriable where a retry can succeed, with
 * Spool's message kept for the error message field. Stateless.
 */
final class KafkaErrors
{
    private KafkaErrors()
    {
    }

    static Errors of(final Throwable thrown)
    {
        final Throwable error = unwrap(thrown);
        if (error instanceof UnknownTopicException || error instanceof UnknownPartitionException)
        {
            return Errors.UNKNOWN_TOPIC_OR_PARTITION;
        }
        if (error instanceof TopicExistsException)
        {
            return Errors.TOPIC_ALREADY_EXISTS;
        }
        if (error instanceof InvalidTopicException)
        {
            return Errors.INVALID_TOPIC_EXCEPTION;
        }
        if (error instanceof RecordTooLargeException)
        {
            return Errors.MESSAGE_TOO_LARGE;
        }
        if (error instanceof OffsetOutOfRangeException)
        {
            return Errors.OFFSET_OUT_OF_RANGE;
        }
        if (error instanceof QueueFullException)
        {
            return Errors.POLICY_VIOLATION;
        }
        if (error instanceof BackPressureException || error instanceof TimeoutException)
        {
            return Errors.REQUEST_TIMED_OUT;
        }
        if (error instanceof EngineClosedException)
        {
            return Errors.NOT_LEADER_OR_FOLLOWER;
        }
        if (error instanceof UnknownMemberException)
        {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        if (error instanceof CommitFailedException)
        {
            return Errors.ILLEGAL_GENERATION;
        }
        if (error instanceof InvalidGroupException)
        {
            return Errors.INVALID_GROUP_ID;
        }
        if (error instanceof InvalidRequestException || error instanceof IllegalArgumentException)
        {
            return Errors.INVALID_REQUEST;
        }
        return Errors.UNKNOWN_SERVER_ERROR;
    }

    static String message(final Throwable thrown)
    {
        final Throwable error = unwrap(thrown);
        return error.getMessage() == null ? error.getClass().getSimpleName() : error.getMessage();
    }

    static Throwable unwrap(final Throwable thrown)
    {
        Throwable error = thrown;
        while (error instanceof CompletionException && error.getCause() != null)
        {
            error = error.getCause();
        }
        return error;
    }
}
