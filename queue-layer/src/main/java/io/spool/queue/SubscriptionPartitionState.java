package io.spool.queue;

import org.agrona.collections.Int2IntHashMap;
import org.agrona.concurrent.EpochClock;

import java.util.function.LongPredicate;

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
 * {@link SubscriptionStateStore#commit()} before it tells anyone about them.
 * <p>
 * Design note: the work is split among per-offset bits and counts ({@link OffsetWindow}), held-message records
 * ({@link InFlightTable}), lock and delay deadlines ({@link DeadlineTimers}), first delivery times
 * ({@link FirstDeliveryTimes}), message traits read from the log ({@link MessageInspector}), ordered and key-sticky
 * groups ({@link MessageGroups}, {@link KeyStickyGroups}), expiry ({@link MessageExpiry}), receipt validation
 * ({@link ReceiptCheck}), and persistence ({@link StateJournal}, {@link StateSnapshot} and {@link StateRestorer}).
 * This class only runs the state machine over them: what a message met by the read cursor becomes (routed
 * elsewhere, expired, waiting for its group, delayed, delivered) and where a settled one hands over next.
 */
public final class SubscriptionPartitionState
{
    /** Longest delay a nack can ask for: 30 days. */
    public static final long MAX_DELAY_MILLIS = 30L * 24 * 60 * 60 * 1000;
    /**
     * Messages one acquire may pass over without delivering any (delayed, waiting for their group, routed elsewhere,
     * expired), so that a long run of them costs several short acquires instead of one long one.
     */
    static final int MAX_PASSED_PER_ACQUIRE = 1 << 14;
    /** Delayed messages a partition holds before the read cursor stops: 20 MB of records. */
    static final int MAX_DELAYED = 1 << 20;

    private final int partition;
    private final EpochClock clock;
    private final long lockTimeoutMillis;
    private final int deliveryLimit;
    private final DeadLetterHandler deadLetters;
    private final OffsetWindow window;
    private final InFlightTable records = new InFlightTable();
    private final FirstDeliveryTimes firstDeliveries = new FirstDeliveryTimes();
    private final DeadlineTimers timers;
    private final ReceiptCheck receiptCheck;
    private final DeadlineTimers.ExpiryHandler onDeadline = this::onDeadline;
    private final Int2IntHashMap inFlightByConsumer = new Int2IntHashMap(0);
    private final MessageTraits traits = new MessageTraits();
    private final MessageGroups groups = new MessageGroups();
    private final boolean orderedGroups;
    private final KeyStickyGroups stickyGroups;
    private final RetryPolicy retryPolicy;
    private final MessageExpiry expiry;
    private final LongPredicate expireOne = this::expireOne;
    private MessageInspector inspector = MessageInspector.PLAIN;
    private LockExpiryHandler lockExpiryHandler = LockExpiryHandler.NONE;
    private StateLog stateLog;
    private long cursor;
    private final org.agrona.collections.LongArrayList overLimitOnRestore = new org.agrona.collections.LongArrayList();
    private long logEnd;
    private int inFlightCount;
    private int delayedCount;
    private long deadCount;
    private long redeliveryCount;

    SubscriptionPartitionState(
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
        this.partition = partition;
        this.clock = clock;
        this.lockTimeoutMillis = settings.lockTimeoutMillis();
        this.deliveryLimit = settings.deliveryLimit();
        this.orderedGroups = settings.groupMode() == GroupMode.ORDERED;
        this.stickyGroups = settings.groupMode() == GroupMode.KEY_STICKY ? new KeyStickyGroups() : null;
        this.retryPolicy = settings.retryPolicy();
        this.expiry = new MessageExpiry(startOffset, settings.messageTtlMillis() != SubscriptionSettings.NO_TTL,
            settings.hasOverflowLimit(), clock);
        this.deadLetters = deadLetters;
        this.stateLog = stateLog;
        this.window = new OffsetWindow(startOffset);
        this.timers = new DeadlineTimers(records, clock.time());
        this.receiptCheck = new ReceiptCheck(partition, window, records);
        this.cursor = startOffset;
        this.logEnd = startOffset;
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
        return partition;
    }

    /** Every offset below the ack floor is acked or dead. */
    public long ackFloor()
    {
        return window.floor();
    }

    /** The next offset never delivered. */
    public long readCursor()
    {
        return cursor;
    }

    public long logEnd()
    {
        return logEnd;
    }

    /**
     * Tells the state that the log has every offset below {@code endOffset}.
     *
     * @throws InvalidRequestException if the end moves backwards.
     */
    public void logEnd(final long endOffset)
    {
        if (endOffset < logEnd)
        {
            throw new InvalidRequestException("log end of partition " + partition + " cannot move back from " +
                logEnd + " to " + endOffset);
        }
        logEnd = endOffset;
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
        final long now = clock.time();
        final long deadline = now + lockMillis;
        int delivered = 0;
        if (stickyGroups != null)
        {
            long offset;
            while (delivered < max && (offset = stickyGroups.nextQueued(consumerId)) != KeyStickyGroups.NONE)
            {
                if (offset < window.floor() || window.isSettled(offset))
                {
                    continue;
                }
                deliverMet(offset, consumerId, deadline, now, handler);
                delivered++;
            }
        }
        while (delivered < max && window.readyCount() > 0)
        {
            final long offset = window.lowestReady();
            window.clearReady(offset);
            if (stickyGroups != null && !takeSticky(offset, consumerId))
            {
                continue;
            }
            deliverMet(offset, consumerId, deadline, now, handler);
            delivered++;
        }
        final long windowEnd = window.floor() + OffsetWindow.MAX_CAPACITY;
        int passed = 0;
        while (delivered < max && cursor < logEnd && cursor < windowEnd && passed < MAX_PASSED_PER_ACQUIRE &&
            groupWaitingCount() < MessageGroups.MAX_WAITING && delayedCount < MAX_DELAYED)
        {
            passed++;
            final long offset = cursor++;
            window.ensureCovers(offset);
            if (expiry.passExpiredAhead(offset, window))
            {
                advanceFloorFrom(offset);
                continue;
            }
            if (expiry.isKnownPlain(offset))
            {
                traits.clear();
            }
            else
            {
                inspector.inspect(offset, traits);
                expiry.metAtCursor(offset, traits);
            }
            if (!admitNew(offset, now) ||
                stickyGroups != null && traits.group != MessageTraits.NO_GROUP &&
                !stickyGroups.take(offset, traits.group, consumerId))
            {
                continue;
            }
            passed--;
            window.deliveryCount(offset, 1);
            hold(offset, consumerId, deadline);
            firstDeliveries.delivered(offset, now);
            stateLog.firstDelivery(offset, now);
            handler.onDelivery(offset, 1);
            delivered++;
        }
        return delivered;
    }

    /** Delivers a message the read cursor already met (released, or waiting for its group or its time). */
    private void deliverMet(final long offset, final int consumerId, final long deadline, final long now,
        final DeliveryHandler handler)
    {
        final int deliveryNumber = window.deliveryCount(offset) + 1;
        window.deliveryCount(offset, deliveryNumber);
        hold(offset, consumerId, deadline);
        if (deliveryNumber == 1)
        {
            firstDeliveries.delivered(offset, now);
            stateLog.firstDelivery(offset, now);
        }
        else
        {
            redeliveryCount++;
            stateLog.redelivery(offset, deliveryNumber);
        }
        handler.onDelivery(offset, deliveryNumber);
    }

    /** Whether a released message may go to {@code consumerId}; if not, it waits for its group's owner. */
    private boolean takeSticky(final long offset, final int consumerId)
    {
        final int group;
        if (stickyGroups.knows(offset))
        {
            group = stickyGroups.groupOf(offset);
        }
        else
        {
            inspector.inspect(offset, traits);
            group = traits.group;
        }
        return group == MessageTraits.NO_GROUP || stickyGroups.take(offset, group, consumerId);
    }

    /**
     * Acknowledges a delivery: the message is done.
     *
     * @throws StaleReceiptException     if the delivery no longer holds the message.
     * @throws AlreadySettledException   if the message is already acked or dead.
     * @throws UnknownDeliveryException  if that delivery never happened.
     */
    public void ack(final long offset, final int deliveryNumber)
    {
        final int record = heldRecord(offset, deliveryNumber, "ack");
        timers.unlink(record);
        endHold(record);
        records.free(record);
        window.settle(offset, false);
        firstDeliveries.settled(offset);
        stateLog.acked(offset);
        advanceFloorFrom(offset);
        if (stickyGroups != null)
        {
            stickyGroups.settled(offset);
        }
        openNextOfGroup(offset);
    }

    /**
     * Releases a delivery back to available, marked redelivered; or dead if it reached the delivery limit.
     *
     * @throws QueueException as {@link #ack(long, int)} does.
     */
    public void nack(final long offset, final int deliveryNumber)
    {
        final int record = heldRecord(offset, deliveryNumber, "nack");
        timers.unlink(record);
        if (!retryPolicy.isLadder())
        {
            returnHeld(offset, record);
            return;
        }
        final int deliveries = window.deliveryCount(offset);
        final long delay = retryPolicy.delayAfter(deliveries);
        if (delay < 0)
        {
            endHold(record);
            records.free(record);
            die(offset, DeadReason.DELIVERY_LIMIT, deliveries);
            return;
        }
        delayHeld(offset, record, delay);
    }

    /**
     * Releases a delivery to become available after {@code delayMillis}; or dead if it reached the delivery limit.
     *
     * @throws InvalidRequestException if the delay is not between 1 ms and {@link #MAX_DELAY_MILLIS}.
     * @throws QueueException          as {@link #ack(long, int)} does.
     */
    public void nackWithDelay(final long offset, final int deliveryNumber, final long delayMillis)
    {
        if (delayMillis < 1 || delayMillis > MAX_DELAY_MILLIS)
        {
            throw new InvalidRequestException("nack delay must be between 1 ms and " + MAX_DELAY_MILLIS +
                " ms, was " + delayMillis + " ms");
        }
        final int record = heldRecord(offset, deliveryNumber, "nack with delay");
        timers.unlink(record);
        delayHeld(offset, record, delayMillis);
    }

    /**
     * An unlinked acquired record waits {@code delayMillis} to become available, or dies: expired when its time to
     * live has passed (as any held message coming back does), else past the limit.
     */
    private void delayHeld(final long offset, final int record, final long delayMillis)
    {
        final int deliveries = window.deliveryCount(offset);
        endHold(record);
        final boolean expired = expiry.hasExpired(offset);
        if (expired || isOverLimit(deliveries))
        {
            records.free(record);
            die(offset, expired ? DeadReason.EXPIRED : DeadReason.DELIVERY_LIMIT, deliveries);
            return;
        }
        final long until = clock.time() + delayMillis;
        records.consumer(record, InFlightTable.DELAYED);
        timers.schedule(record, until);
        delayedCount++;
        stateLog.delayed(offset, until);
    }

    /**
     * Rejects a delivery: the message goes dead with reason {@link DeadReason#REJECTED}.
     *
     * @throws QueueException as {@link #ack(long, int)} does.
     */
    public void reject(final long offset, final int deliveryNumber)
    {
        final int record = heldRecord(offset, deliveryNumber, "reject");
        timers.unlink(record);
        endHold(record);
        records.free(record);
        die(offset, DeadReason.REJECTED, window.deliveryCount(offset));
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
        if (lockMillis < 1 || lockMillis > SubscriptionSettings.MAX_LOCK_TIMEOUT_MILLIS)
        {
            throw new InvalidRequestException("lock extension must be between 1 ms and " +
                SubscriptionSettings.MAX_LOCK_TIMEOUT_MILLIS + " ms, was " + lockMillis + " ms");
        }
        final int record = heldRecord(offset, deliveryNumber, "extend");
        final long deadline = clock.time() + lockMillis;
        timers.unlink(record);
        timers.schedule(record, deadline);
        return deadline;
    }

    /** {@link #ack(long, int)} by receipt; also refuses a receipt of another partition. */
    public void ack(final Receipt receipt)
    {
        ack(receipt.offset(), receiptCheck.deliveryNumberFor(receipt, "ack"));
    }

    public void nack(final Receipt receipt)
    {
        nack(receipt.offset(), receiptCheck.deliveryNumberFor(receipt, "nack"));
    }

    public void reject(final Receipt receipt)
    {
        reject(receipt.offset(), receiptCheck.deliveryNumberFor(receipt, "reject"));
    }

    public long extend(final Receipt receipt, final long lockMillis)
    {
        return extend(receipt.offset(), receiptCheck.deliveryNumberFor(receipt, "extend"), lockMillis);
    }

    /**
     * Returns every delivery a consumer holds to available (marked redelivered), as when it closes or its
     * connection is lost. Visits the pages of held records, not the whole window.
     *
     * @return the number of deliveries released (including those that went dead on their delivery limit).
     */
    public int releaseConsumer(final int consumerId)
    {
        int released = 0;
        for (int slot = 0, slots = records.tableSlots(); slot < slots; slot++)
        {
            for (int i = 0, size = InFlightTable.pageSize(); i < size && records.hasPage(slot); i++)
            {
                final int record = records.recordInSlot(slot, i);
                if (record != InFlightTable.NIL && records.consumer(record) == consumerId)
                {
                    timers.unlink(record);
                    returnHeld(records.offset(record, window.floor()), record);
                    released++;
                }
            }
        }
        if (stickyGroups != null)
        {
            stickyGroups.consumerGone(consumerId, window::markReady);
        }
        return released;
    }

    /**
     * Returns deliveries whose lock deadline passed to available (redelivered), and delayed messages that are due.
     *
     * @return the number of deliveries and delays that ended.
     */
    public int expireDue()
    {
        final long now = clock.time();
        return timers.expireDue(now, onDeadline) + expiry.expireDue(now, expireOne);
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
        return expiry.readAhead(budget, window, cursor, logEnd);
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
            window.clearReady(offset);
            die(offset, DeadReason.MAXLEN, window.deliveryCount(offset));
            return true;
        }
        final long windowEnd = window.floor() + OffsetWindow.MAX_CAPACITY;
        while (cursor < logEnd && cursor < windowEnd)
        {
            final long offset = cursor++;
            window.ensureCovers(offset);
            if (expiry.passExpiredAhead(offset, window))
            {
                advanceFloorFrom(offset);
                continue;
            }
            inspector.inspect(offset, traits);
            expiry.metAtCursor(offset, traits);
            if (!traits.routed)
            {
                admitNew(offset, clock.time());
                continue;
            }
            die(offset, DeadReason.MAXLEN, 0);
            return true;
        }
        return false;
    }

    /** Bytes of the messages not yet delivered, as far as they were read ahead. */
    public long unreadBytes()
    {
        return expiry.unreadBytes();
    }

    /** Messages queued for expiry, acked ones included until their expiry passes. */
    public int expiryQueueSize()
    {
        return expiry.queueSize();
    }

    /**
     * @throws InvalidRequestException if the offset is negative, or at or past the log end.
     */
    public MessageState state(final long offset)
    {
        if (offset < 0)
        {
            throw new InvalidRequestException("offsets are >= 0, was " + offset);
        }
        if (offset < window.floor())
        {
            return MessageState.ACKED;
        }
        if (offset >= logEnd && offset >= cursor)
        {
            throw new InvalidRequestException("offset " + offset + " of partition " + partition +
                " is at or past the log end " + logEnd);
        }
        if (offset >= cursor)
        {
            return expiry.isExpiredAhead(offset, window) ? MessageState.DEAD : MessageState.AVAILABLE;
        }
        if (window.isReady(offset))
        {
            return MessageState.AVAILABLE;
        }
        if (window.isSettled(offset))
        {
            return window.isDead(offset) ? MessageState.DEAD : MessageState.ACKED;
        }
        final int record = records.recordAt(offset);
        if (record == InFlightTable.NIL)
        {
            return MessageState.AVAILABLE;
        }
        return records.consumer(record) == InFlightTable.DELAYED ? MessageState.DELAYED : MessageState.ACQUIRED;
    }

    /** How often the message was delivered; 0 if never, and 0 below the ack floor, where counts are dropped. */
    public int deliveryCount(final long offset)
    {
        return offset < window.floor() || offset >= cursor ? 0 : window.deliveryCount(offset);
    }

    /** When the message was first delivered (epoch ms; the same on every redelivery), or -1 if never. */
    public long firstDeliveryTime(final long offset)
    {
        return offset < window.floor() ? FirstDeliveryTimes.UNKNOWN : firstDeliveries.timeOf(offset);
    }

    /** The lock deadline of an acquired message or the due time of a delayed one, else -1. */
    public long deadline(final long offset)
    {
        final int record = offset < window.floor() || offset >= cursor ? InFlightTable.NIL :
            records.recordAt(offset);
        return record == InFlightTable.NIL ? -1 : records.deadline(record);
    }

    /** The consumer holding an acquired message, else -1. */
    public int holder(final long offset)
    {
        final int record = offset < window.floor() || offset >= cursor ? InFlightTable.NIL :
            records.recordAt(offset);
        return record == InFlightTable.NIL ? -1 : Math.max(-1, records.consumer(record));
    }

    /** Messages that an acquire could hand out now: released ones plus those not yet delivered. */
    public long readyCount()
    {
        return window.readyCount() + (logEnd - cursor) - expiry.expiredAheadCount();
    }

    public int inFlightCount()
    {
        return inFlightCount;
    }

    /** Deliveries a consumer holds now; push delivery gives it {@code prefetch - inFlightOf(consumer)} more. */
    public int inFlightOf(final int consumerId)
    {
        return inFlightByConsumer.get(consumerId);
    }

    /** Messages waiting behind the head of their group, or for the consumer that owns their key. */
    public int groupWaitingCount()
    {
        return groups.waitingCount() + (stickyGroups == null ? 0 : stickyGroups.queuedCount());
    }

    /** Marks a message that expired ahead of the read cursor while restoring; the cursor stays. */
    void restoreExpiredAhead(final long offset)
    {
        expiry.restoreExpiredAhead(offset);
    }

    long expiredAheadEnd()
    {
        return expiry.aheadEnd();
    }

    /** Reads the group, delivery time and expiry of the messages this state meets. */
    void inspector(final MessageInspector inspector)
    {
        this.inspector = inspector;
        expiry.inspector(inspector);
    }

    /** Reads the traits of messages ahead of delivery, with a reader apart from the one the cursor uses. */
    void readAheadInspector(final MessageInspector inspector)
    {
        expiry.inspector(inspector);
    }

    /**
     * After a restore, puts every unsettled message behind the head of its group again, reading the groups from
     * the log: what was released becomes available only if it heads its group.
     */
    void rebuildGroups()
    {
        if (!orderedGroups)
        {
            return;
        }
        for (long offset = window.floor(); offset < cursor; offset++)
        {
            if (window.isSettled(offset))
            {
                continue;
            }
            inspector.inspect(offset, traits);
            if (traits.group != MessageTraits.NO_GROUP && !groups.open(traits.group, offset) &&
                window.isReady(offset))
            {
                window.clearReady(offset);
            }
        }
    }

    /** Who to tell when a delivery's lock expires, so its consumer can learn its receipt went stale. */
    public void lockExpiryHandler(final LockExpiryHandler handler)
    {
        lockExpiryHandler = handler == null ? LockExpiryHandler.NONE : handler;
    }

    public int delayedCount()
    {
        return delayedCount;
    }

    /** Messages that went dead since this state was opened. */
    public long deadCount()
    {
        return deadCount;
    }

    /** Deliveries after the first, since this state was opened. */
    public long redeliveryCount()
    {
        return redeliveryCount;
    }

    /** The lowest offset an acquire would hand out now, or -1 if none is ready; the owner turns it into an age. */
    public long oldestReadyOffset()
    {
        if (window.readyCount() > 0)
        {
            return window.lowestReady();
        }
        long unread = cursor;
        while (unread < logEnd && expiry.isExpiredAhead(unread, window))
        {
            unread++;
        }
        return unread < logEnd ? unread : -1;
    }

    /** Bytes held by this state's arrays, maps and timer wheel, counted from their current capacities. */
    public long footprintBytes()
    {
        return window.footprintBytes() + records.footprintBytes() + timers.footprintBytes() +
            firstDeliveries.footprintBytes() + groups.footprintBytes() + expiry.footprintBytes() +
            (stickyGroups == null ? 0 : stickyGroups.footprintBytes()) +
            (long)inFlightByConsumer.capacity() * 2 * Integer.BYTES;
    }

    OffsetWindow window()
    {
        return window;
    }

    InFlightTable records()
    {
        return records;
    }

    FirstDeliveryTimes firstDeliveries()
    {
        return firstDeliveries;
    }

    long timerCount()
    {
        return timers.timerCount();
    }

    void stateLog(final StateLog stateLog)
    {
        this.stateLog = stateLog;
    }

    /** Moves the read cursor up to {@code readCursor} while restoring; every offset below it was delivered. */
    void restoreCursor(final long readCursor)
    {
        if (readCursor > window.floor())
        {
            window.ensureCovers(readCursor - 1);
        }
        cursor = Math.max(cursor, readCursor);
    }

    /** A delayed message restored from the files: held by nobody, due at {@code until}. */
    void holdDelayed(final long offset, final long until)
    {
        timers.schedule(records.allocate(offset, InFlightTable.DELAYED), until);
        delayedCount++;
    }

    /** A message nobody holds any more becomes available again, or dead if it reached the delivery limit. */
    void giveBack(final long offset)
    {
        giveBack(offset, expiry.hasExpired(offset));
    }

    /**
     * A delivered message coming back from the files after a restart. One past its delivery limit waits for
     * {@link #settleRestored()}: whether it dies as expired or as over its limit needs its record read, and the
     * log is not attached yet while the files are replayed.
     */
    void giveBackRestored(final long offset)
    {
        if (isOverLimit(window.deliveryCount(offset)))
        {
            overLimitOnRestore.addLong(offset);
            return;
        }
        giveBack(offset, false);
    }

    /**
     * The end of a restore: counts what expired ahead of the cursor, and the restored messages past their limit
     * die, expired first.
     */
    void settleRestored()
    {
        expiry.recountExpiredAhead(cursor, window);
        for (int i = 0; i < overLimitOnRestore.size(); i++)
        {
            final long offset = overLimitOnRestore.getLong(i);
            giveBack(offset, expiry.hasExpiredOnRestore(offset));
        }
        overLimitOnRestore.clear();
    }

    private void giveBack(final long offset, final boolean expired)
    {
        final int deliveries = window.deliveryCount(offset);
        if (expired)
        {
            die(offset, DeadReason.EXPIRED, deliveries);
        }
        else if (isOverLimit(deliveries))
        {
            die(offset, DeadReason.DELIVERY_LIMIT, deliveries);
        }
        else
        {
            window.markReady(offset);
        }
    }

    /** The record of the delivery that holds the message now, or a specific exception saying why there is none. */
    private int heldRecord(final long offset, final int deliveryNumber, final String action)
    {
        final int record = receiptCheck.heldRecord(offset, deliveryNumber, cursor, action);
        final long deadline = records.deadline(record);
        if (deadline <= clock.time())
        {
            // The timer has not fired yet, but the lock is over: expire it now so the answer never depends on
            // when the owner last polled the timers.
            final int consumerId = records.consumer(record);
            timers.unlink(record);
            returnHeld(offset, record);
            lockExpiryHandler.onLockExpired(offset, consumerId, deliveryNumber);
            throw receiptCheck.lockExpired(action, offset, deliveryNumber, deadline,
                offset < window.floor() || window.isSettled(offset));
        }
        return record;
    }

    private void hold(final long offset, final int consumerId, final long deadline)
    {
        timers.schedule(records.allocate(offset, consumerId), deadline);
        inFlightCount++;
        inFlightByConsumer.put(consumerId, inFlightByConsumer.get(consumerId) + 1);
    }

    /** An unlinked acquired record comes back: available again, or dead past the delivery limit. */
    private void returnHeld(final long offset, final int record)
    {
        endHold(record);
        records.free(record);
        giveBack(offset);
    }

    /** An acquired record stops counting as in flight, for the subscription and for its consumer. */
    private void endHold(final int record)
    {
        final int consumerId = records.consumer(record);
        final int held = inFlightByConsumer.get(consumerId) - 1;
        if (held == 0)
        {
            inFlightByConsumer.remove(consumerId);
        }
        else
        {
            inFlightByConsumer.put(consumerId, held);
        }
        inFlightCount--;
    }

    private void onDeadline(final int record)
    {
        final long offset = records.offset(record, window.floor());
        if (records.consumer(record) == InFlightTable.DELAYED)
        {
            records.free(record);
            delayedCount--;
            if (expiry.hasExpired(offset))
            {
                die(offset, DeadReason.EXPIRED, window.deliveryCount(offset));
            }
            else
            {
                window.markReady(offset);
            }
        }
        else
        {
            final int consumerId = records.consumer(record);
            final int deliveryNumber = window.deliveryCount(offset);
            returnHeld(offset, record);
            lockExpiryHandler.onLockExpired(offset, consumerId, deliveryNumber);
        }
    }

    /**
     * Expires a message whose time to live ended, wherever it waits but in a consumer's hands: a held message
     * expires when it comes back; one waiting for its group or its key's owner goes dead where it waits and is
     * passed over when its turn comes.
     *
     * @return whether it expired now.
     */
    private boolean expireOne(final long offset)
    {
        if (offset < window.floor())
        {
            return false;
        }
        if (offset >= cursor)
        {
            window.ensureCovers(offset);
            if (window.isSettled(offset))
            {
                return false;
            }
            expiry.expiredAhead(offset);
            die(offset, DeadReason.EXPIRED, 0);
            return true;
        }
        if (window.isSettled(offset))
        {
            return false;
        }
        if (window.isReady(offset))
        {
            window.clearReady(offset);
            die(offset, DeadReason.EXPIRED, window.deliveryCount(offset));
            return true;
        }
        final int record = records.recordAt(offset);
        if (record == InFlightTable.NIL)
        {
            die(offset, DeadReason.EXPIRED, window.deliveryCount(offset));
            return true;
        }
        if (records.consumer(record) != InFlightTable.DELAYED)
        {
            return false;
        }
        timers.unlink(record);
        records.free(record);
        delayedCount--;
        die(offset, DeadReason.EXPIRED, window.deliveryCount(offset));
        return true;
    }

    private boolean isOverLimit(final int deliveries)
    {
        return deliveryLimit != SubscriptionSettings.UNLIMITED_DELIVERIES && deliveries > deliveryLimit;
    }

    private void die(final long offset, final DeadReason reason, final int deliveries)
    {
        markDead(offset, reason, deliveries);
        if (stickyGroups != null)
        {
            stickyGroups.settled(offset);
        }
        openNextOfGroup(offset);
    }

    private void markDead(final long offset, final DeadReason reason, final int deliveries)
    {
        window.settle(offset, true);
        firstDeliveries.settled(offset);
        deadCount++;
        stateLog.dead(offset, reason);
        deadLetters.onDead(offset, reason, deliveries);
        advanceFloorFrom(offset);
    }

    /**
     * Decides what a message met for the first time by the read cursor becomes; {@link #traits} hold its traits.
     *
     * @return true if it is to be delivered now; false if it was routed elsewhere, expired, waits behind its group,
     * or waits for its delivery time.
     */
    private boolean admitNew(final long offset, final long now)
    {
        if (!traits.routed)
        {
            // Routed by an exchange to other subscriptions of the topic: done here without a delivery.
            window.settle(offset, false);
            stateLog.acked(offset);
            advanceFloorFrom(offset);
            return false;
        }
        if (traits.expireAt <= now)
        {
            die(offset, DeadReason.EXPIRED, 0);
            return false;
        }
        if (orderedGroups && traits.group != MessageTraits.NO_GROUP && !groups.open(traits.group, offset))
        {
            return false;
        }
        if (traits.deliverAt > now)
        {
            holdDelayed(offset, traits.deliverAt);
            stateLog.delayed(offset, traits.deliverAt);
            return false;
        }
        return true;
    }

    /**
     * The message at {@code offset} was acked or went dead: if it headed a group, the next waiting message of the
     * group becomes available (or delayed, or dead if it expired while it waited).
     */
    private void openNextOfGroup(final long offset)
    {
        long next = groups.settled(offset);
        while (next != MessageGroups.NONE)
        {
            if (next < window.floor() || window.isSettled(next))
            {
                // It expired while it waited.
                next = groups.settled(next);
                continue;
            }
            inspector.inspect(next, traits);
            final long now = clock.time();
            if (traits.expireAt <= now)
            {
                markDead(next, DeadReason.EXPIRED, window.deliveryCount(next));
                next = groups.settled(next);
                continue;
            }
            if (traits.deliverAt > now)
            {
                holdDelayed(next, traits.deliverAt);
                stateLog.delayed(next, traits.deliverAt);
            }
            else
            {
                window.markReady(next);
            }
            return;
        }
    }

    private void advanceFloorFrom(final long settledOffset)
    {
        if (settledOffset == window.floor())
        {
            firstDeliveries.trimBelow(window.advanceFloor(cursor));
        }
    }
}
