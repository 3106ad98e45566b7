package io.spool.cluster;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What a node's {@link DeadLetterCopier}s share: one thread, on which they publish copies and confirm them (both
 * wait for a Raft group, which must never happen on a group's apply thread), and a client of the cluster of the
 * node's own, made on first use since the node's groups load before its consensus server serves. Thread-safe.
 */
final class DeadLetterSender implements AutoCloseable
{
    /** Where copying stops while a test holds it, to close a leader at that point ({@link #hold}). */
    enum Hold
    {
        NONE, BEFORE_COPY, BEFORE_CONFIRM
    }

    private static final long RETRY_MILLIS = 200;

    private final ClusterMembers members;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(runnable ->
    {
        final Thread sender = new Thread(runnable, "spool-cluster-dead-letters");
        sender.setDaemon(true);
        return sender;
    });
    private final Queue<DeadLetterCopier> copiers = new ConcurrentLinkedQueue<>();
    private ClusterClient cluster;
    private volatile Hold hold = Hold.NONE;
    private volatile boolean closed;

    DeadLetterSender(final ClusterMembers members)
    {
        this.members = members;
    }

    void register(final DeadLetterCopier copier)
    {
        copiers.add(copier);
    }

    synchronized ClusterClient cluster()
    {
        if (cluster == null)
        {
            cluster = ClusterClient.connect(members);
        }
        return cluster;
    }

    void execute(final Runnable task)
    {
        try
        {
            thread.execute(task);
        }
        catch (final RejectedExecutionException closing)
        {
            // the node is closing: its copies are owed in the groups' state, for the next leader
        }
    }

    void retryLater(final Runnable task)
    {
        try
        {
            thread.schedule(task, RETRY_MILLIS, TimeUnit.MILLISECONDS);
        }
        catch (final RejectedExecutionException closing)
        {
            // as in execute
        }
    }

    /**
     * For tests: stops every copier of the node at {@code where} (the copies stay owed), or with {@link Hold#NONE}
     * lets them go on.
     */
    void hold(final Hold where)
    {
        hold = where;
        if (where == Hold.NONE)
        {
            copiers.forEach(DeadLetterCopier::wake);
        }
    }

    boolean holds(final Hold where)
    {
        return hold == where;
    }

    boolean closed()
    {
        return closed;
    }

    @Override
    public void close()
    {
        closed = true;
        thread.shutdownNow();
        synchronized (this)
        {
            if (cluster != null)
            {
                cluster.close();
            }
        }
    }
}
