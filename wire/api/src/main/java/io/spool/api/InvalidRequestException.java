package io.spool.api;

/**
 * A call's argument was outside what it accepts, in the stream or the queue half alike: a non-positive poll limit or
 * batch size, a negative offset, consumer id or delay, a malformed receipt token. The message says which argument
 * and why; retrying the same call fails the same way. Immutable, thread-safe.
 */
public class InvalidRequestException extends SpoolException
{
    public InvalidRequestException(final String message)
    {
        super(message);
    }
}
