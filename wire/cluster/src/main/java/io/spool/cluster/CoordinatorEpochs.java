package io.spool.cluster;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Per consumer group, the highest coordinator epoch a partition's group has applied a commit from: the metadata
 * group's term in which the coordinating node became its leader. A commit or deletion from a lower epoch comes
 * from a node that has lost the leadership without knowing it yet, and is refused, the same way on every node since
 * each applies the entries in the same order. Epoch {@link #UNFENCED} (a {@code ClusterClient}'s commit, and the
 * entries written before coordinators were fenced) is never refused and raises no group's epoch.
 * <p>
 * Not thread-safe: used on the group's apply thread, which also takes and loads its snapshots.
 */
final class CoordinatorEpochs
{
    /** The epoch of a commit no coordinator sent. */
    static final long UNFENCED = 0;

    private final Map<String, Long> highest = new TreeMap<>();

    /**
     * Whether an entry of {@code epoch} may change the group's offsets here; when it may, the group's epoch is
     * raised to it, so no lower one can after it.
     */
    boolean admit(final String group, final long epoch)
    {
        if (epoch == UNFENCED)
        {
            return true;
        }
        if (epoch < highest(group))
        {
            return false;
        }
        highest.put(group, epoch);
        return true;
    }

    /** The highest epoch applied for the group, {@link #UNFENCED} when none. */
    long highest(final String group)
    {
        return highest.getOrDefault(group, UNFENCED);
    }

    /** Forgets the group's epoch, as its deletion does. */
    void forget(final String group)
    {
        highest.remove(group);
    }

    /** Every group's epoch, for the group's snapshot. */
    Map<String, Long> byGroup()
    {
        return Collections.unmodifiableMap(highest);
    }

    /** Replaces every epoch with a snapshot's (none for a snapshot written before coordinators were fenced). */
    void restore(final Map<String, Long> epochs)
    {
        highest.clear();
        highest.putAll(epochs);
    }
}
