package io.spool.wire.sqs;

/**
 * A request the endpoint refuses, answered with an SQS error: which one and why, in words for the caller. Unchecked,
 * so that a handler deep in a request can refuse it in one line.
 */
final class SqsException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final SqsError error;

    SqsException(final SqsError error, final String message)
    {
        super(message, null, false, false);
        this.error = error;
    }

    SqsError error()
    {
        return error;
    }
}
