package io.spool.queue.internal.state;

import io.spool.api.queue.AlreadySettledException;
import io.spool.api.queue.GroupMode;
import io.spool.api.InvalidRequestException;
import io.spool.api.queue.QueueException;
import io.spool.api.queue.Receipt;
import io.spool.api.queue.RetryPolicy;
import io.spool.api.queue.StaleReceiptException;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.queue.UnknownDeliveryException;
import io.spool.queue.DeadLetterHandler;
import io.spool.queue.DeadReason;
import io.spool.queue.DeliveryHandler;
import io.spool.queue.internal.table.FirstDeliveryTimes;
import io.spool.queue.internal.table.InFlightTable;
import io.spool.queue.internal.table.OffsetWindow;
import org.agrona.concurrent.EpochClock;

/**
 * The state of every message of one partition for one subscription, from the ack floor upward: which are available,
 * acquired (by whom, until when, for which delivery), acked, delayed or dead. Not thread-safe: owned by one thread,
 * which other threads send commands to.
 * <p>
 * Acquire hands out released messages first, lowest offset first, then new offsets from the read cursor up to the
 * log end the owner reports with {@link #logEnd(long)}. Every later action names its delivery by offset and delivery
 * number (a {@link Receipt}); a receipt whose delivery no longer holds the message is refused with a specific
 * exception and changes nothing.
 * <p>
 * Acquire, ack, nack, extend and expiry allocate nothing once the arrays have grown to the working set; only errors
 * allocate (their message). Changes of durable state go to a {@link StateLog}; the owner makes them durable with
 * the store's commit before it tells anyone about them.
 * <p>
 * Design note: the data (per-offset bits and counts, held records, deadlines, first delivery times, expiry) sits in
 * {@link PartitionCore}, and the state machine is split by job: this class is the owner's one entry and checks
 * requests; {@link DeliverySettlement} checks and settles single deliveries, {@link Acquisitions} hands messages out,
 * {@link RangeAcks} settles runs of in-order acks, {@link ReadCursor} decides what a message met for the first time
 * becomes, {@link Releases} brings held messages back, {@link Delays} keeps delayed ones, {@link DeadLettering} ends
 * dead ones, {@link GroupGate} orders groups, {@link Deadlines} acts when locks, delays and times to live end,
 * {@link MessageStateReader} answers questions about one message, {@link PartitionCounts} counts the messages in each
 * state, and {@link RestoredStateWriter} applies what the files say. Persistence is the store's (package
 * {@code io.spool.queue.internal.store}), which this package never sees.
 */
public final class SubscriptionPartitionState
{
    /**
     * Messages one acquire may pass over without delivering any (delayed, waiting for their group, routed elsewhere,
     * expired), so that a long run of them costs several short acquires instead of one long one.
     */
    public static final int MAX_PASSED_PER_ACQUIRE = 1 << 14;
    /** Delayed messages a partition holds before the read cursor stops: 20 MB of records. */
    static final int MAX_DELAYED = 1 << 20;

    private final PartitionCore core;
    private final OffsetWindow window;
    private long lockTimeoutMillis;
    private final DeadLettering dead;
    private final Delays delays;
    private final GroupGate groups;
    private final Releases releases;
    private final Deadlines deadlines;
    private final MessageStateReader states;
    private final ReadCursor cursor;
    private final RestoredStateWriter restore;
    private final RangeAcks rangeAcks;
    private final Acquisitions acquisitions;
    private final DeliverySettlement settlement;
    private final PartitionCounts counts;
    /** Whether the read cursor meets messages as the log end passes them, not when an acquire reaches them. */
    private final boolean meetsArrivals;

    public SubscriptionPartitionState(
        final int partition,
        final SubscriptionSettings settings,
        final EpochClock clock,
        final long startOffset,
        final DeadLetterHandler deadLetters,
        final StateLog stateLog)
    {
        if (partition < 0 || startOffset < 0)
        {
            throw new InvalidRequestException("partition and start offset must be >= 0, were " + partition + " and " +
                startOffset);
        }
        this.core = new PartitionCore(partition, settings, clock, startOffset, stateLog);
        this.window = core.window;
        this.lockTimeoutMillis = settings.lockTimeoutMillis();
        this.dead = new DeadLettering(core, settings, deadLetters);
        this.delays = new Delays(core, dead);
        this.groups = new GroupGate(core, settings, dead, delays);
        dead.groups(groups);
        delays.groups(groups);
        this.releases = new Releases(core, dead, groups);
        this.deadlines = new Deadlines(core, dead, delays, releases);
        this.states = new MessageStateReader(core);
        this.cursor = new ReadCursor(core, dead, delays, groups);
        this.restore = new RestoredStateWriter(core, delays, releases);
        this.rangeAcks = new RangeAcks(core, releases, groups);
        this.acquisitions = new Acquisitions(core, groups, cursor);
        this.settlement = new DeliverySettlement(core, settings.retryPolicy(), releases, delays, dead, groups);
        this.counts = new PartitionCounts(core, states, groups, delays, dead, acquisitions);
        this.meetsArrivals = settings.groupMode() == GroupMode.ORDERED;
    }

    /**
     * A state that keeps nothing on disk, starting with nothing delivered at {@code startOffset}.
     */
    public static SubscriptionPartitionState inMemory(
        final int partition,
        final SubscriptionSettings settings,
        final EpochClock clock,
        final long startOffset,
        final DeadLetterHandler deadLetters)
    {
        return new SubscriptionPartitionState(partition, settings, clock, startOffset, deadLetters, StateLog.NONE);
    }

    public int partition()
    {
        return core.partition;
    }

    /** Dead messages whose copy the dead-letter topic has not confirmed yet. */
    public DueDeadLetters dueDeadLetters()
    {
        return core.dueLetters;
    }

    /** The copy of the dead message at {@code offset} is stored (or never can be): journaled, and owed no more. */
    public void deadLetterStored(final long offset)
    {
        if (core.dueLetters.isDue(offset))
        {
            core.dueLetters.stored(offset);
            core.stateLog.deadLetterStored(offset);
        }
    }

    /** Every offset below the ack floor is acked or dead. */
    public long ackFloor()
    {
        return window.floor();
    }

    /** The next offset the read cursor has not met: never delivered, and with ordered groups not yet read either. */
    public long readCursor()
    {
        return core.cursor;
    }

    public long logEnd()
    {
        return core.logEnd;
    }

    /**
     * Tells the state that the log has every offset below {@code endOffset}.
     *
     * @throws InvalidRequestException if the end moves backwards.
     */
    public void logEnd(final long endOffset)
    {
        if (endOffset < core.logEnd)
        {
            throw new InvalidRequestException("log end of partition " + core.partition + " cannot move back from " +
                core.logEnd + " to " + endOffset);
        }
        core.logEnd = endOffset;
        if (core.readyBytes != null)
        {
            core.readyBytes.logEndMoved();
        }
    }

    /**
     * Tells the state that retention removed every offset below {@code startOffset}: the read cursor passes at once
     * those it had not met, as settled (see {@link ReadCursor#passRemoved()}), so that receives go on from there.
     */
    public void logStart(final long startOffset)
    {
        if (startOffset > core.logStart)
        {
            core.logStart = startOffset;
            cursor.passRemoved();
        }
    }

    /**
     * With ordered groups, meets up to {@link #MAX_PASSED_PER_ACQUIRE} messages the log end passed, so that those
     * waiting behind their group are known as such before anyone asks (see {@link PartitionCounts#readyCount()});
     * without, the read cursor meets messages only as acquires reach them, and this does nothing.
     *
     * @return the number of messages met.
     */
    public int meetArrivals()
    {
        return meetsArrivals ? cursor.meetAhead(MAX_PASSED_PER_ACQUIRE, window.floor() + OffsetWindow.MAX_CAPACITY) :
            0;
    }

    /**
     * Takes the changeable settings of a live subscription: the lock timeout for deliveries from now on (those in
     * flight keep their deadlines) and the delivery limit for messages that come back from now on.
     */
    public void update(final SubscriptionSettings settings)
    {
        this.lockTimeoutMillis = settings.lockTimeoutMillis();
        dead.deliveryLimit(settings.deliveryLimit());
        dead.keepsLetters(settings.deadLetterTopic() != null);
    }

    /**
     * Acquires up to {@code max} available messages for a consumer, locked until now plus the lock timeout:
     * released messages first, lowest offset first, then new offsets. Runs due expiries first.
     *
     * @return the number of deliveries handed to {@code handler}.
     * @throws InvalidRequestException if {@code max < 1} or {@code consumerId < 0}.
     */
    public int acquire(final int max, final int consumerId, final DeliveryHandler handler)
    {
        return acquire(max, consumerId, lockTimeoutMillis, handler);
    }

    /**
     * {@link #acquire(int, int, DeliveryHandler)} with a lock of {@code lockMillis} for these deliveries instead of
     * the subscription's lock timeout, as an SQS receive may ask for its own visibility timeout.
     *
     * @throws InvalidRequestException if an argument is out of range.
     */
    public int acquire(final int max, final int consumerId, final long lockMillis, final DeliveryHandler handler)
    {
        if (max < 1 || consumerId < 0 || lockMillis < 1 || lockMillis > SubscriptionSettings.MAX_LOCK_TIMEOUT_MILLIS)
        {
            throw new InvalidRequestException("acquire needs max >= 1, consumer id >= 0 and a lock between 1 ms " +
                "and " + SubscriptionSettings.MAX_LOCK_TIMEOUT_MILLIS + " ms, was max " + max + ", consumer " +
                consumerId + " and lock " + lockMillis + " ms");
        }
        expireDue();
        return acquisitions.acquire(max, consumerId, core.clock.time() + lockMillis, handler);
    }

    /**
     * Acknowledges a delivery, whoever holds it: the message is done.
     *
     * @throws StaleReceiptException     if the delivery no longer holds the message.
     * @throws AlreadySettledException   if the message is already acked or dead.
     * @throws UnknownDeliveryException  if that delivery never happened.
     */
    public void ack(final long offset, final int deliveryNumber)
    {
        settle(Settlement.ACK, offset, deliveryNumber, 0, ReceiptCheck.ANY_HOLDER);
    }

    /**
     * Acknowledges delivery {@code deliveryNumber} of the {@code count} offsets from {@code from} on, as
     * {@link #ack(long, int)} would one by one for consumer {@code holder}; each refused offset goes to
     * {@code refusals} with its exception.
     */
    public void ackRange(final long from, final int count, final int deliveryNumber, final int holder,
        final RangeAcks.Refusals refusals)
    {
        rangeAcks.ack(from, count, deliveryNumber, holder, refusals);
    }

    /**
     * Releases a delivery back to available, marked redelivered; or dead if it reached the delivery limit. Under a
     * retry ladder, it waits the ladder's next delay instead, or goes dead past the last rung.
     *
     * @throws QueueException as {@link #ack(long, int)} does.
     */
    public void nack(final long offset, final int deliveryNumber)
    {
        settle(Settlement.NACK, offset, deliveryNumber, 0, ReceiptCheck.ANY_HOLDER);
    }

    /**
     * Releases a delivery to become available after {@code delayMillis}; or dead if it reached the delivery limit.
     *
     * @throws InvalidRequestException if the delay is not between 1 ms and {@link RetryPolicy#MAX_DELAY_MILLIS}.
     * @throws QueueException          as {@link #ack(long, int)} does.
     */
    public void nackWithDelay(final long offset, final int deliveryNumber, final long delayMillis)
    {
        settle(Settlement.NACK_DELAYED, offset, deliveryNumber, delayMillis, ReceiptCheck.ANY_HOLDER);
    }

    /**
     * Rejects a delivery: the message goes dead with reason {@link DeadReason#REJECTED}.
     *
     * @throws QueueException as {@link #ack(long, int)} does.
     */
    public void reject(final long offset, final int deliveryNumber)
    {
        settle(Settlement.REJECT, offset, deliveryNumber, 0, ReceiptCheck.ANY_HOLDER);
    }

    /**
     * Moves a delivery's lock deadline to now plus {@code lockMillis}, as SQS's ChangeMessageVisibility does.
     *
     * @return the new lock deadline in epoch milliseconds.
     * @throws InvalidRequestException if the lock is not between 1 ms and the 12 h maximum.
     * @throws QueueException          as {@link #ack(long, int)} does.
     */
    public long extend(final long offset, final int deliveryNumber, final long lockMillis)
    {
        return settle(Settlement.EXTEND, offset, deliveryNumber, lockMillis, ReceiptCheck.ANY_HOLDER);
    }

    /**
     * Settles a delivery as {@code settlement} says, its argument a delay (nack with delay) or a lock (extend), for
     * consumer {@code holder}, which must hold it, or for {@link ReceiptCheck#ANY_HOLDER}.
     *
     * @return the new lock deadline of an extension, else 0.
     * @throws InvalidRequestException if the argument is out of range.
     * @throws QueueException          as {@link #ack(long, int)} does, or if another consumer holds the delivery.
     */
    public long settle(final Settlement settlement, final long offset, final int deliveryNumber, final long argument,
        final int holder)
    {
        return this.settlement.settle(settlement, offset, deliveryNumber, argument, holder);
    }

    /** {@link #ack(long, int)} by receipt; also refuses a receipt of another partition. */
    public void ack(final Receipt receipt)
    {
        ack(receipt.offset(), releases.receiptCheck().deliveryNumberFor(receipt, "ack"));
    }

    /**
     * Returns every delivery a consumer holds to available (marked redelivered), as when it closes or its
     * connection is lost. Visits the pages of held records, not the whole window.
     *
     * @return the number of deliveries released (including those that went dead on their delivery limit).
     */
    public int releaseConsumer(final int consumerId)
    {
        return releases.releaseConsumer(consumerId);
    }

    /**
     * Returns deliveries whose lock deadline passed to available (redelivered), and delayed messages that are due.
     *
     * @return the number of deliveries and delays that ended.
     */
    public int expireDue()
    {
        return deadlines.expireDue();
    }

    /**
     * Reads up to {@code budget} messages ahead of delivery for their expiry, so that each expires on its own time,
     * not when delivery reaches it. Each message is read ahead at most once, and not at all if delivery met it
     * first.
     *
     * @return the number of messages read.
     */
    public int readAheadForExpiry(final int budget)
    {
        return core.expiry.readAhead(budget, window, core.cursor, core.logEnd);
    }

    /**
     * Dead-letters the oldest ready message (reason {@code maxlen}): a released one first, else the next one the
     * read cursor would deliver.
     *
     * @return false if nothing was ready.
     */
    public boolean dropOldest()
    {
        if (window.readyCount() > 0)
        {
            final long offset = window.lowestReady();
            core.clearReady(offset);
            dead.die(offset, DeadReason.MAXLEN, window.deliveryCount(offset));
            return true;
        }
        return cursor.dropNext();
    }

    /**
     * @throws InvalidRequestException if the offset is negative, or at or past the log end.
     */
    public MessageState state(final long offset)
    {
        return states.state(offset);
    }

    /** How often the message was delivered; 0 if never, and 0 below the ack floor, where counts are dropped. */
    public int deliveryCount(final long offset)
    {
        return states.deliveryCount(offset);
    }

    /** When the message was first delivered (epoch ms; the same on every redelivery), or -1 if never. */
    public long firstDeliveryTime(final long offset)
    {
        return states.firstDeliveryTime(offset);
    }

    /** The lock deadline of an acquired message or the due time of a delayed one, else -1. */
    public long deadline(final long offset)
    {
        return states.deadline(offset);
    }

    /** The consumer holding an acquired message, else -1. */
    public int holder(final long offset)
    {
        return states.holder(offset);
    }

    /** How many messages are in each state: the figures for metrics, overflow and memory. */
    public PartitionCounts counts()
    {
        return counts;
    }

    /** Deliveries a consumer holds now; push delivery gives it {@code prefetch - inFlightOf(consumer)} more. */
    public int inFlightOf(final int consumerId)
    {
        return core.inFlightOf(consumerId);
    }

    /** Who to tell when a delivery's lock expires, so its consumer can learn its receipt went stale. */
    public void lockExpiryHandler(final LockExpiryHandler handler)
    {
        releases.lockExpiryHandler(handler);
    }

    /** Reads the group, delivery time and expiry of the messages this state meets. */
    public void inspector(final MessageInspector inspector)
    {
        core.inspector = inspector;
        core.expiry.inspector(inspector);
    }

    /** Reads the traits of messages ahead of delivery, with a reader apart from the one the cursor uses. */
    public void readAheadInspector(final MessageInspector inspector)
    {
        core.expiry.inspector(inspector);
    }

    /**
     * Once the log is attached after a restore: puts every unsettled message behind the head of its group again,
     * then counts the bytes of what is ready.
     */
    public void attached()
    {
        groups.rebuild();
        if (core.readyBytes != null)
        {
            core.readyBytes.recountReleased();
        }
    }

    /** Reads the records' bytes as the log end passes them, for the overflow limit's count. */
    public void arrivalInspector(final MessageInspector inspector)
    {
        if (core.readyBytes != null)
        {
            core.readyBytes.arrivals(inspector);
        }
    }

    public OffsetWindow window()
    {
        return window;
    }

    public InFlightTable records()
    {
        return core.records;
    }

    public FirstDeliveryTimes firstDeliveries()
    {
        return core.firstDeliveries;
    }

    public void stateLog(final StateLog stateLog)
    {
        core.stateLog = stateLog;
    }

    /** Past the read cursor, offsets below it may have expired ahead of it; the snapshot keeps their bits. */
    public long expiredAheadEnd()
    {
        return core.expiry.aheadEnd();
    }

    /** What the state files say is applied through this while the state is restored. */
    public RestoredStateWriter restore()
    {
        return restore;
    }
}
