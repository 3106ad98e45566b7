package io.spool.api.stream;

/**
 * A producer or consumer was used in a way its mode forbids, such as assigning partitions by hand after
 * subscribing to a group, or a zero-copy publish on a producer made without a listener. Immutable, thread-safe.
 */
public final class IllegalClientStateException extends StreamException
{
    public IllegalClientStateException(final String message)
    {
        super(message);
    }
}
