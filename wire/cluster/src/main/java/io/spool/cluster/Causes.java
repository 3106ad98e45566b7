package io.spool.cluster;

/** What an error says at its root, for messages that name the cause an operator can act on. */
final class Causes
{
    private Causes()
    {
    }

    /** The message of the innermost cause of {@code error} ("null" when it has none). */
    static String rootMessage(final Throwable error)
    {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root)
        {
            root = root.getCause();
        }
        return String.valueOf(root.getMessage());
    }
}
