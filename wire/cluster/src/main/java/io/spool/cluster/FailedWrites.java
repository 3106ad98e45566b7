package io.spool.cluster;

import io.spool.api.stream.TopicPartition;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.server.RaftServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * What a node does when it cannot write a partition's committed entry to its disk (a full disk, most often): it
 * says so in one log line, naming the directory and what to do, and leaves the partition's group by closing its
 * division of it, so that a leader gives up its leadership and a follower stops taking entries it cannot keep. The
 * others go on with a majority of their own; once the disk has room and the node is restarted, it catches up from
 * the group's log. Staying in the group would be worse either way: a leader that cannot store keeps the partition
 * waiting, and a follower that skipped an entry would give every later record the wrong offset.
 * <p>
 * A snapshot the node cannot write makes it leave the same way, rather than have Ratis try again after every
 * entry.
 * <p>
 * A write the metadata group cannot make here (a topic's files, the group's Raft log, a snapshot) stops the whole
 * node instead: it cannot skip the entry, since every later one would find other topics here than on the others,
 * and a node up without its metadata group would keep groups of deleted topics and answer clients of the groups it
 * never joined that it holds none. Restarted with room, it applies that entry and what follows.
 * <p>
 * Thread-safe: called from Ratis' apply and log threads; the division is closed on the node's own executor, since
 * closing it waits for those very threads.
 */
final class FailedWrites
{
    private static final Logger LOGGER = LoggerFactory.getLogger(FailedWrites.class);
    /** Less room than the largest write a node makes (a Raft segment's preallocation, an entry) means full. */
    private static final long FULL_BELOW_BYTES = 2L * RaftSettings.MAX_ENTRY_BYTES;

    private final int nodeId;
    private final Executor closer;
    private final AtomicLong groupsLeft = new AtomicLong();
    /** Closes the whole node, off the thread that asks, given the line that says why. */
    private final Consumer<String> stopNode;
    private final AtomicBoolean stopping = new AtomicBoolean();

    FailedWrites(final int nodeId, final Executor closer, final Consumer<String> stopNode)
    {
        this.nodeId = nodeId;
        this.closer = closer;
        this.stopNode = stopNode;
    }

    /**
     * Logs why the node could not write {@code what} of {@code where} to {@code directory}, and closes its division
     * of {@code group}.
     */
    void leave(final RaftServer server, final RaftGroupId group, final String what, final TopicPartition where,
        final Path directory, final Throwable cause)
    {
        leaveSaying(describe(nodeId, what, where, directory, cause), server, group);
    }

    /**
     * Logs that the node could not fetch from the other members the records its snapshot of {@code where} holds
     * and its log lacks ({@link LogRepair}), and closes its division of {@code group}.
     */
    void leaveUnrepaired(final RaftServer server, final RaftGroupId group, final TopicPartition where,
        final Throwable cause)
    {
        leaveSaying(describeUnrepaired(nodeId, where, cause), server, group);
    }

    private void leaveSaying(final String why, final RaftServer server, final RaftGroupId group)
    {
        LOGGER.error(why);
        groupsLeft.incrementAndGet();
        closer.execute(() -> close(server, group));
    }

    /** The groups this node has left since it started, for its metrics. */
    long groupsLeft()
    {
        return groupsLeft.get();
    }

    static String describeUnrepaired(final int nodeId, final TopicPartition where, final Throwable cause)
    {
        return "node " + nodeId + " could not fetch the records of " + where + " that its snapshot holds and its " +
            "log lacks from the other members: " + Causes.rootMessage(cause) + "; it has left the partition's " +
            "group, which goes on with the other nodes: restart the node once a majority is reachable (their logs " +
            "must still hold those records: keep retention longer than a node's outage)";
    }

    /** The one line a failed write is logged with: which node, what, where, why, and what to do. */
    static String describe(final int nodeId, final String what, final TopicPartition where, final Path directory,
        final Throwable cause)
    {
        final String error = Causes.rootMessage(cause);
        return "node " + nodeId + " cannot write " + what + " of " + where + " to " + directory + ": " +
            problem(directory, error) + "; it has left the partition's group, which goes on with the other nodes: " +
            remedy(directory, error) + " and restart the node, which then catches up from the group";
    }

    /**
     * Logs, the first time only and not once the node closes, that the node cannot write {@code what} for the
     * metadata group to {@code directory}, and stops the node.
     */
    void stopNode(final String what, final Path directory, final Throwable cause)
    {
        if (stopping.compareAndSet(false, true))
        {
            final String why = describeStop(nodeId, what, directory, cause);
            LOGGER.error(why);
            stopNode.accept(why);
        }
    }

    /** The node closes: no failed write from now on stops it again or says so. */
    void nodeClosing()
    {
        stopping.set(true);
    }

    /** The one line a node stopped by a failed write of the metadata group logs. */
    static String describeStop(final int nodeId, final String what, final Path directory, final Throwable cause)
    {
        final String error = Causes.rootMessage(cause);
        return "node " + nodeId + " stopped: it cannot write " + what + " to " + directory + ": " +
            problem(directory, error) + "; it cannot take the cluster's later topics without it, so it has closed " +
            "its groups, and the other nodes keep serving: " + remedy(directory, error) + " and restart the node, " +
            "which then applies the cluster's topics it missed, joins their groups and catches up";
    }

    private static String problem(final Path directory, final String error)
    {
        return isFull(directory, error) ? "its disk is full (" + usableBytes(directory) + " bytes free; " + error +
            ")" : error;
    }

    private static String remedy(final Path directory, final String error)
    {
        return isFull(directory, error) ? "free space on that disk (or move the data directory to a larger one)" :
            "repair that disk";
    }

    private static boolean isFull(final Path directory, final String error)
    {
        return error.contains("No space left on device") || usableBytes(directory) < FULL_BELOW_BYTES;
    }

    private static long usableBytes(final Path directory)
    {
        try
        {
            return Files.getFileStore(directory).getUsableSpace();
        }
        catch (final IOException unreadable)
        {
            return Long.MAX_VALUE;
        }
    }

    private void close(final RaftServer server, final RaftGroupId group)
    {
        try
        {
            server.getDivision(group).close();
        }
        catch (final IOException | RuntimeException alreadyGone)
        {
            LOGGER.warn("node {} could not close its division of group {}", nodeId, group, alreadyGone);
        }
    }
}
