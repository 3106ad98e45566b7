package io.spool.cluster;

import org.apache.ratis.client.RaftClient;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Sends a partition's write entries to its group, and puts the entries that queue up while earlier ones are being
 * committed into one Raft entry (an envelope) each. A group's leader takes a client's entries one after the other
 * and a majority forces its Raft log for each, so entries sent one by one are committed one force at a time,
 * whatever the number in flight; entries that wait together share one. At most {@link #ENVELOPES_IN_FLIGHT}
 * Raft entries are outstanding, one being committed while the next fills. Entries are committed in the order they
 * were handed over; a queue entry, which the leader must stamp on its own, is never enveloped. Thread-safe.
 */
final class EntryCoalescer
{
    static final int ENVELOPES_IN_FLIGHT = 2;

    private final RaftClient client;
    private final int maxEnvelopeBytes;
    private final ArrayDeque<Pending> waiting = new ArrayDeque<>();
    private int inFlight;
    private long entriesSent;

    EntryCoalescer(final RaftClient client, final int maxEnvelopeBytes)
    {
        this.client = client;
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
            sendWaiting();
        }
        return pending.reply;
    }

    /** Sends what waits, while fewer than the limit are in flight; under the lock, so sends keep the queue's order. */
    private synchronized void sendWaiting()
    {
        while (inFlight < ENVELOPES_IN_FLIGHT && !waiting.isEmpty())
        {
            final List<Pending> taken = takeEnvelope();
            inFlight++;
            entriesSent++;
            final Message entry = taken.size() == 1 ? taken.get(0).entry :
                ClusterEntryDescriptor.envelope(taken.stream().map(Pending::entry).toList());
            client.async().send(entry).whenComplete((reply, failure) ->
            {
                synchronized (this)
                {
                    inFlight--;
                    sendWaiting();
                }
                answer(taken, reply, failure);
            });
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
