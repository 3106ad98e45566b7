package io.spool.cluster;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A Raft group's snapshot file that cannot be loaded: damaged, of another version, or from another group. The node
 * does not start the group from it, since replaying the trimmed log from an older point would skip entries.
 */
final class DamagedSnapshotException extends IOException
{
    DamagedSnapshotException(final Path file, final String problem)
    {
        super("snapshot " + file + " cannot be loaded: " + problem + ". The group's log was trimmed up to it, so " +
            "the node cannot rebuild the group from its own files: stop the node, move the group's directory (" +
            file.getParent().getParent() + ") out of raft/, and start it again; it rejoins the group and gets the " +
            "state and the records it lacks from the other members");
    }

    DamagedSnapshotException(final Path file, final String problem, final Throwable cause)
    {
        this(file, problem);
        initCause(cause);
    }
}
