package io.spool.queue;

import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.internal.state.MessageState;
import io.spool.queue.internal.state.ReceiptCheck;
import io.spool.queue.internal.state.Settlement;
import io.spool.queue.internal.state.SubscriptionPartitionState;
import io.spool.queue.internal.store.StateSnapshot;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.CachedEpochClock;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One subscription partition's per-message state driven by a replicated log of decisions rather than by a local
 * agent: each call carries the time its entry was stamped with, and the state reads no other clock, so every node
 * that applies the same calls in the same order holds the same state (the same deliveries, delivery counts, lock
 * deadlines, delays and dead messages). It is the queue layer's own state machine
 * ({@link SubscriptionPartitionState}) under a clock the entries set: no second copy of its rules.
 * <p>
 * Lock deadlines and delays are judged at the stamped time before every call, so a receipt whose lock ran out by
 * the entry's time is refused on every node alike, whatever each node's own clock says. Every delivery is held
 * for one consumer (the cluster), and a receipt is checked by its delivery number alone.
 * <p>
 * Not thread-safe: owned by the thread that applies the replicated log's entries, one at a time (the agent-thread
 * rule of the queue layer, with the apply thread as the agent).
 */
public final class ReplicatedPartitionState
{
    /** The one consumer every replicated delivery is held for: receipts name deliveries, not consumers. */
    private static final int CLUSTER_CONSUMER = 0;

    /** The time of the last entry applied, which is this state's only clock. */
    private final CachedEpochClock clock = new CachedEpochClock();
    private final List<DeadLetter> deadLetters = new ArrayList<>();
    private final SubscriptionPartitionState state;

    /** A delivery a receive handed out: the message at {@code offset}, delivered for the {@code deliveryNumber}-th time. */
    public record Delivered(long offset, int deliveryNumber)
    {
    }

    /** A message that went dead, owed to the subscription's dead-letter topic. */
    public record DeadLetter(long offset, DeadReason reason, int deliveryCount)
    {
    }

    /** What one offset's state is, for comparing nodes and for tests. */
    public record OffsetState(String state, int deliveryCount)
    {
    }

    /**
     * @param startTimeMillis the stamped time of the entry that created the subscription.
     */
    public ReplicatedPartitionState(final int partition, final SubscriptionSettings settings,
        final long startOffset, final long startTimeMillis)
    {
        clock.update(startTimeMillis);
        this.state = SubscriptionPartitionState.inMemory(partition, settings, clock, startOffset, this::deadLetter);
    }

    private ReplicatedPartitionState(final SubscriptionSettings settings, final Path file, final byte[] bytes)
    {
        final ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        try
        {
            clock.update(in.getLong());
            final long logEnd = in.getLong();
            final int lockCount = in.getInt();
            final Long2LongHashMap locks = new Long2LongHashMap(Long.MIN_VALUE);
            for (int i = 0; i < lockCount; i++)
            {
                locks.put(in.getLong(), in.getLong());
            }
            this.state = StateSnapshot.restore(file, Arrays.copyOfRange(bytes, in.position(), bytes.length),
                settings, clock, this::deadLetter, locks, CLUSTER_CONSUMER);
            if (logEnd > state.logEnd())
            {
                state.logEnd(logEnd);
            }
        }
        catch (final java.nio.BufferUnderflowException | IllegalArgumentException ex)
        {
            throw new CorruptStateException("replicated subscription state in " + file + " ends inside its locks", ex);
        }
    }

    /**
     * Rebuilds a state from {@link #snapshot()} bytes, read from {@code file}: the same deliveries, locks, delays and
     * dead messages, at the same time, as the state that wrote them.
     *
     * @throws CorruptStateException if the bytes are not such a snapshot.
     */
    public static ReplicatedPartitionState restore(final SubscriptionSettings settings, final Path file,
        final byte[] bytes)
    {
        return new ReplicatedPartitionState(settings, file, bytes);
    }

    /**
     * The whole state as bytes for {@link #restore}. Little endian: the clock (int64), the log end (int64), the
     * locks of the held messages (count int32, then offset int64 and deadline int64 each), then the queue layer's
     * own snapshot of the state (acks, dead messages, delivery counts, delays), which a local store keeps without
     * the locks because a restarted engine redelivers what was held; every node of a group must hold the same
     * locks instead.
     */
    public byte[] snapshot()
    {
        final Long2LongHashMap locks = new Long2LongHashMap(Long.MIN_VALUE);
        for (long offset = state.ackFloor(), cursor = state.readCursor(); offset < cursor; offset++)
        {
            if (state.state(offset) == MessageState.ACQUIRED)
            {
                locks.put(offset, state.deadline(offset));
            }
        }
        final byte[] queueState = StateSnapshot.encode(state);
        final ByteBuffer out = ByteBuffer.allocate(2 * Long.BYTES + Integer.BYTES + locks.size() * 2 * Long.BYTES +
            queueState.length).order(ByteOrder.LITTLE_ENDIAN);
        out.putLong(clock.time()).putLong(state.logEnd()).putInt(locks.size());
        final Long2LongHashMap.EntryIterator lock = locks.entrySet().iterator();
        while (lock.hasNext())
        {
            lock.next();
            out.putLong(lock.getLongKey()).putLong(lock.getLongValue());
        }
        out.put(queueState);
        return out.array();
    }

    private void deadLetter(final long offset, final DeadReason reason, final int deliveryCount)
    {
        deadLetters.add(new DeadLetter(offset, reason, deliveryCount));
    }

    /**
     * Hands out up to {@code max} messages below {@code logEnd}, released ones first, each locked until
     * {@code nowMillis + lockMillis}.
     *
     * @throws io.spool.api.InvalidRequestException if {@code max} or the lock is out of range.
     */
    public List<Delivered> receive(final long nowMillis, final long logEnd, final int max, final long lockMillis)
    {
        advanceTo(nowMillis);
        if (logEnd > state.logEnd())
        {
            state.logEnd(logEnd);
        }
        final List<Delivered> delivered = new ArrayList<>();
        state.acquire(max, CLUSTER_CONSUMER, lockMillis, (offset, deliveryNumber) ->
            delivered.add(new Delivered(offset, deliveryNumber)));
        return delivered;
    }

    /** @throws io.spool.api.queue.QueueException when the delivery no longer holds the message, naming why. */
    public void ack(final long nowMillis, final long offset, final int deliveryNumber)
    {
        settle(nowMillis, Settlement.ACK, offset, deliveryNumber, 0);
    }

    /** Releases a delivery at once, or after {@code delayMillis} when that is above 0; dead at the delivery limit. */
    public void nack(final long nowMillis, final long offset, final int deliveryNumber, final long delayMillis)
    {
        settle(nowMillis, delayMillis > 0 ? Settlement.NACK_DELAYED : Settlement.NACK, offset, deliveryNumber,
            delayMillis);
    }

    public void reject(final long nowMillis, final long offset, final int deliveryNumber)
    {
        settle(nowMillis, Settlement.REJECT, offset, deliveryNumber, 0);
    }

    /** @return the delivery's new lock deadline, {@code nowMillis + lockMillis}. */
    public long extend(final long nowMillis, final long offset, final int deliveryNumber, final long lockMillis)
    {
        return settle(nowMillis, Settlement.EXTEND, offset, deliveryNumber, lockMillis);
    }

    private long settle(final long nowMillis, final Settlement settlement, final long offset,
        final int deliveryNumber, final long argument)
    {
        advanceTo(nowMillis);
        return state.settle(settlement, offset, deliveryNumber, argument, ReceiptCheck.ANY_HOLDER);
    }

    /**
     * Moves the clock to the entry's time (never back: a new leader's clock may lag the old one's) and ends the
     * locks and delays due by then.
     */
    private void advanceTo(final long nowMillis)
    {
        clock.update(Math.max(clock.time(), nowMillis));
        state.expireDue();
    }

    /** The messages that went dead since the last call, oldest first. */
    public List<DeadLetter> takeDeadLetters()
    {
        final List<DeadLetter> taken = List.copyOf(deadLetters);
        deadLetters.clear();
        return taken;
    }

    public OffsetState stateOf(final long offset)
    {
        return new OffsetState(state.state(offset).name(), state.deliveryCount(offset));
    }

    public long ackFloor()
    {
        return state.ackFloor();
    }
}
