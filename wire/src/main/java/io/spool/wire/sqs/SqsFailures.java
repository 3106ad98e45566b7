package io.spool.wire.sqs;

import io.spool.api.EngineClosedException;
import io.spool.api.SpoolException;
import io.spool.api.log.BackPressureException;
import io.spool.api.log.RecordTooLargeException;
import io.spool.api.InvalidRequestException;
import io.spool.api.queue.InvalidSettingsException;
import io.spool.api.queue.QueueFullException;
import io.spool.api.queue.UnknownSubscriptionException;
import io.spool.api.stream.UnknownTopicException;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;

/**
 * What an engine error (or any other) is to an SQS client: a caller's mistake the engine refused is the SQS error
 * for it, a full subscription is OverLimit, a closed or busy engine (or a queue purged or deleted under the request)
 * is ServiceUnavailable, which the AWS SDKs retry, and anything else is InternalFailure, logged here. Stateless and
 * thread-safe.
 */
final class SqsFailures
{
    private static final System.Logger LOGGER = System.getLogger(SqsFailures.class.getName());

    private SqsFailures()
    {
    }

    static SqsException of(final Throwable failure)
    {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) &&
            cause.getCause() != null)
        {
            cause = cause.getCause();
        }
        if (cause instanceof SqsException)
        {
            return (SqsException)cause;
        }
        if (cause instanceof QueueFullException)
        {
            return SqsError.OVER_LIMIT.with(cause.getMessage());
        }
        if (cause instanceof UnknownSubscriptionException || cause instanceof UnknownTopicException)
        {
            return SqsError.QUEUE_DOES_NOT_EXIST.with("The specified queue does not exist: " + cause.getMessage());
        }
        if (cause instanceof InvalidSettingsException || cause instanceof InvalidRequestException ||
            cause instanceof RecordTooLargeException)
        {
            return SqsError.INVALID_PARAMETER_VALUE.with(cause.getMessage());
        }
        if (cause instanceof EngineClosedException || cause instanceof BackPressureException ||
            cause instanceof RejectedExecutionException || cause instanceof SpoolException)
        {
            return SqsError.SERVICE_UNAVAILABLE.with("The service is unavailable for now, try again: " +
                cause.getMessage());
        }
        LOGGER.log(System.Logger.Level.ERROR, "SQS request failed", cause);
        return SqsError.INTERNAL_FAILURE.with("The request failed on the server: " + cause);
    }
}
