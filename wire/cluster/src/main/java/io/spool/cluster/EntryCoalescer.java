package io.spool.cluster;

import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * Sends a partition's write entries to its group, and puts the entries that queue up while earlier ones are being
 * committed into one Raft entry (an envelope) each. A group's leader takes a client's entries one after the other
 * and a majority forces its Raft log for each, so entries sent one by one are committed one force at a time,
 * whatever the number in flight; entries that wait together share one. At most {@link #ENVELOPES_IN_FLIGHT}
 * Raft entries are outstanding, one being committed while the next fills. Entries are committed in the order they
 * were handed over; a queue entry, which the leader must stamp on its own, is never enveloped. Thread-safe.
 * <p>
 * Design note: Ratis completes a reply's future while it holds its client's window lock, and takes that lock to
 * send. So this class never sends while it holds its own lock (one thread at a time sends, in queue order, as the
 * {@code sending} turn passes), and answers replies on {@code answers}, not on the thread Ratis completed them on:
 * a caller's callback that publishes again, or takes a lock a publisher holds, cannot then close a cycle of locks.
 */
final class EntryCoalescer
{
    static final int ENVELOPES_IN_FLIGHT = 2;

    private final Function<Message, CompletableFuture<RaftClientReply>> raft;
    private final Executor answers;
    private final int maxEnvelopeBytes;
    /** Guarded by this, as is everything below. */
    private final ArrayDeque<Pending> waiting = new ArrayDeque<>();
    private int inFlight;
    private boolean sending;
    private long entriesSent;

    /**
     * @param raft    sends one Raft entry to the group and completes with its reply.
     * @param answers where replies are handed out to the entries' callers, and the next entries sent.
     */
    EntryCoalescer(final Function<Message, CompletableFuture<RaftClientReply>> raft, final Executor answers,
        final int maxEnvelopeBytes)
    {
        this.raft = raft;
        this.answers = answers;
        this.maxEnvelopeBytes = maxEnvelopeBytes;
    }

    private record Pending(Message entry, CompletableFuture<RaftClientReply> reply)
    {
    }

    /** Completes with the group's reply to {@code entry}, as if it had been sent on its own. */
    CompletableFuture<RaftClientReply> send(final Message entry)
    {
        final Pending pending = new Pending(entry, new CompletableFuture<>());
        synchronized (this)
        {
            waiting.add(pending);
        }
        sendWaiting();
        return pending.reply;
    }

    /**
     * Sends what waits while fewer than the limit are in flight, unless another thread has the turn to send: it sees
     * what was queued before it gave the turn up, since both happen under the lock.
     */
    private void sendWaiting()
    {
        synchronized (this)
        {
            if (sending)
            {
                return;
            }
            sending = true;
        }
        while (true)
        {
            final List<Pending> taken;
            synchronized (this)
            {
                if (inFlight >= ENVELOPES_IN_FLIGHT || waiting.isEmpty())
                {
                    sending = false;
                    return;
                }
                taken = takeEnvelope();
                inFlight++;
                entriesSent++;
            }
            final Message entry = taken.size() == 1 ? taken.get(0).entry :
                ClusterEntryDescriptor.envelope(taken.stream().map(Pending::entry).toList());
            sendOne(entry).whenCompleteAsync((reply, failure) ->
            {
                synchronized (this)
                {
                    inFlight--;
                }
                try
                {
                    answer(taken, reply, failure);
                }
                catch (final RuntimeException unreadable)
                {
                    taken.forEach(pending -> pending.reply.completeExceptionally(unreadable));
                }
                sendWaiting();
            }, answers);
        }
    }

    private CompletableFuture<RaftClientReply> sendOne(final Message entry)
    {
        try
        {
            return raft.apply(entry);
        }
        catch (final RuntimeException refused)
        {
            return CompletableFuture.failedFuture(refused);
        }
    }

    /** The waiting entries that fit one envelope, oldest first; a queue entry or an oversized one goes alone. */
    private List<Pending> takeEnvelope()
    {
        final List<Pending> taken = new ArrayList<>();
        long bytes = 0;
        while (!waiting.isEmpty())
        {
            final Pending next = waiting.peek();
            final boolean alone = QueueEntryDescriptor.isQueueEntry(next.entry.getContent());
            final long size = next.entry.getContent().size() + Integer.BYTES;
            if (!taken.isEmpty() && (alone || bytes + size > maxEnvelopeBytes))
            {
                break;
            }
            taken.add(waiting.poll());
            bytes += size;
            if (alone)
            {
                break;
            }
        }
        return taken;
    }

    /** Fails the entries not yet sent; those in flight are answered as their Raft client closes. */
    void close()
    {
        final List<Pending> unsent;
        synchronized (this)
        {
            unsent = new ArrayList<>(waiting);
            waiting.clear();
        }
        final IllegalStateException closed = new IllegalStateException("the cluster client was closed before " +
            "the entry was sent; it was not stored");
        unsent.forEach(pending -> pending.reply.completeExceptionally(closed));
    }

    /** The Raft entries sent so far, an envelope counting once. */
    synchronized long entriesSent()
    {
        return entriesSent;
    }

    private static void answer(final List<Pending> taken, final RaftClientReply reply, final Throwable failure)
    {
        if (failure != null)
        {
            taken.forEach(pending -> pending.reply.completeExceptionally(failure));
            return;
        }
        if (taken.size() == 1 || !reply.isSuccess())
        {
            taken.forEach(pending -> pending.reply.complete(reply));
            return;
        }
        final List<ByteString> replies = ClusterEntryDescriptor.decodeEnvelopeReply(reply.getMessage().getContent());
        for (int i = 0; i < taken.size(); i++)
        {
            taken.get(i).reply.complete(RaftClientReply.newBuilder()
                .setClientId(reply.getClientId())
                .setServerId(reply.getServerId())
                .setGroupId(reply.getRaftGroupId())
                .setCallId(reply.getCallId())
                .setLogIndex(reply.getLogIndex())
                .setCommitInfos(reply.getCommitInfos())
                .setSuccess()
                .setMessage(Message.valueOf(replies.get(i)))
                .build());
        }
    }
}
