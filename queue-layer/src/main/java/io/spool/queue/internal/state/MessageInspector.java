package io.spool.queue.internal.state;

/**
 * Reads the {@link MessageTraits} of a message when the state first meets it. Called only on the state's owning
 * thread; not thread-safe.
 */
@FunctionalInterface
public interface MessageInspector
{
    /** Every message plain: no group, no delay, no expiry. */
    MessageInspector PLAIN = (offset, traits) -> traits.clear();

    /** Fills {@code traits} for the message at {@code offset}; a message retention removed reads as plain. */
    void inspect(long offset, MessageTraits traits);

    /**
     * How many messages from {@code offset} on, up to {@code max}, are plain ({@link MessageTraits#isPlain()}), the
     * run ending at the first that is not; {@code scratch} is free to fill. An inspector that reads records in
     * batches answers from its batch instead of message by message.
     */
    default int plainRun(final long offset, final int max, final MessageTraits scratch)
    {
        int run = 0;
        while (run < max)
        {
            inspect(offset + run, scratch);
            if (!scratch.isPlain())
            {
                break;
            }
            run++;
        }
        return run;
    }
}
