package io.spool.api.stream;

/**
 * A call's argument was outside what it accepts, such as a non-positive poll limit or a negative offset to
 * commit; the message says which argument and why. Immutable, thread-safe.
 */
public class InvalidRequestException extends StreamException
{
    public InvalidRequestException(final String message)
    {
        super(message);
    }
}
