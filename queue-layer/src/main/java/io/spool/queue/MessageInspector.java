package io.spool.queue;

/**
 * Reads the {@link MessageTraits} of a message when the state first meets it. Called only on the state's owning
 * thread; not thread-safe.
 */
@FunctionalInterface
interface MessageInspector
{
    /** Every message plain: no group, no delay, no expiry. */
    MessageInspector PLAIN = (offset, traits) -> traits.clear();

    /** Fills {@code traits} for the message at {@code offset}; a message retention removed reads as plain. */
    void inspect(long offset, MessageTraits traits);
}
