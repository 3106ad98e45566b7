package io.spool.log;

/**
 * A record whose stored frame would exceed the log's {@code maxRecordBytes}. Immutable, thread-safe.
 */
public final class RecordTooLargeException extends SpoolException
{
    private static final long serialVersionUID = 1L;

    public RecordTooLargeException(final String log, final int frameLength, final int maxRecordBytes)
    {
        super("record of " + frameLength + " bytes (header, key, headers and value) exceeds maxRecordBytes " +
            maxRecordBytes + " of log " + log);
    }
}
