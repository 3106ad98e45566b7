package io.spool.api.queue;

/**
 * A subscription setting is out of its allowed range; the message names the setting, the value and the range.
 * Immutable and thread-safe.
 */
public final class InvalidSettingsException extends QueueException
{
    public InvalidSettingsException(final String message)
    {
        super(message);
    }
}
