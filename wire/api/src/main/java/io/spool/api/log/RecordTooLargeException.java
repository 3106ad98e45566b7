package io.spool.api.log;

import io.spool.api.SpoolException;

/**
 * A record whose stored frame would exceed the log's {@code maxRecordBytes}, or whose publish frame would exceed a
 * server's frame limit. Immutable, thread-safe.
 */
public final class RecordTooLargeException extends SpoolException
{
    private static final long serialVersionUID = 1L;

    public RecordTooLargeException(final String log, final int frameLength, final int maxRecordBytes)
    {
        super("record of " + frameLength + " bytes (header, key, headers and value) exceeds maxRecordBytes " +
            maxRecordBytes + " of log " + log);
    }

    private RecordTooLargeException(final String message)
    {
        super(message);
    }

    /** A record a network client cannot send at all: its publish frame would exceed the server's frame limit. */
    public static RecordTooLargeException overFrameLimit(final String topic, final int recordBytes,
        final int maxFrameLength)
    {
        return new RecordTooLargeException("a record of " + recordBytes + " bytes for topic \"" + topic +
            "\" does not fit the server's frame limit of " + maxFrameLength + " bytes; nothing was sent");
    }
}
