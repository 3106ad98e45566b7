package io.spool.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What one queue subscription should do with the messages of its topic, one message at a time, in plain lists:
 * each message's state, delivery count, holder, lock deadline and delay; the subscription's lock timeout and
 * delivery limit; and the dead letters it produced. Written for clarity, not speed, and without any of the
 * engine's code. Time is whatever the caller says it is. Not thread-safe.
 * <p>
 * The rules, from the design's state machine: an acquire hands out available messages of a partition lowest offset
 * first; a delivery is named by (partition, offset, delivery number) and only the latest delivery of a held message
 * may settle it; a message that comes back (nack, lock expiry, its consumer leaving, a restart) after more
 * deliveries than the limit goes dead instead of available.
 */
public final class QueueModel
{
    public static final int UNLIMITED = -1;

    public enum State
    {
        AVAILABLE, ACQUIRED, DELAYED, ACKED, DEAD
    }

    /** What the engine must answer to a settlement. */
    public enum Outcome
    {
        DONE, STALE, ALREADY_SETTLED, UNKNOWN_DELIVERY
    }

    public record Receipt(int partition, long offset, int deliveryNumber)
    {
    }

    public record Delivery(int partition, long offset, int deliveryNumber, String value)
    {
        public boolean redelivered()
        {
            return deliveryNumber > 1;
        }

        public Receipt receipt()
        {
            return new Receipt(partition, offset, deliveryNumber);
        }
    }

    public record DeadLetter(int partition, long offset, String reason, int deliveries)
    {
    }

    /** One message of one partition, as this subscription sees it. */
    public static final class Message
    {
        final int partition;
        final long offset;
        final String value;
        final long publishedAt;
        final long expiresAt;
        State state = State.AVAILABLE;
        int deliveries;
        String holder;
        long lockDeadline;
        long delayedUntil;

        Message(final int partition, final long offset, final String value, final long publishedAt,
            final long expiresAt)
        {
            this.partition = partition;
            this.offset = offset;
            this.value = value;
            this.publishedAt = publishedAt;
            this.expiresAt = expiresAt;
        }

        boolean hasExpired(final long now)
        {
            return expiresAt <= now;
        }

        public long offset()
        {
            return offset;
        }

        @Override
        public String toString()
        {
            return partition + "@" + offset + " " + state + " x" + deliveries +
                (state == State.ACQUIRED ? " by " + holder + " until " + lockDeadline : "") +
                (state == State.DELAYED ? " until " + delayedUntil : "");
        }
    }

    private final long lockTimeoutMillis;
    private final int deliveryLimit;
    private final List<List<Message>> partitions = new ArrayList<>();
    private final List<DeadLetter> deadLetters = new ArrayList<>();
    private long deadSinceOpen;
    private long redeliveriesSinceOpen;

    public QueueModel(final int partitionCount, final long lockTimeoutMillis, final int deliveryLimit)
    {
        this.lockTimeoutMillis = lockTimeoutMillis;
        this.deliveryLimit = deliveryLimit;
        for (int p = 0; p < partitionCount; p++)
        {
            partitions.add(new ArrayList<>());
        }
    }

    /** @return the offset the message gets. */
    public long publish(final int partition, final String value, final long now)
    {
        return publish(partition, value, now, Long.MAX_VALUE - now);
    }

    /**
     * Publishes a message that lives {@code ttlMillis}: past that it goes dead (expired) wherever it waits, and a
     * consumer holding it keeps it until it comes back.
     *
     * @return the offset the message gets.
     */
    public long publish(final int partition, final String value, final long now, final long ttlMillis)
    {
        final List<Message> messages = partitions.get(partition);
        messages.add(new Message(partition, messages.size(), value, now, now + ttlMillis));
        return messages.size() - 1;
    }

    /** The available messages of a partition in the order an acquire must hand them out. */
    public List<Message> availableInOrder(final int partition)
    {
        return partitions.get(partition).stream().filter(m -> m.state == State.AVAILABLE)
            .sorted(Comparator.comparingLong(m -> m.offset)).toList();
    }

    /**
     * Hands an available message to {@code holder}, locked for the lock timeout from {@code now}.
     *
     * @throws IllegalStateException when the message is not available: the engine delivered what it must not.
     */
    public Delivery acquire(final int partition, final long offset, final String holder, final long now)
    {
        final Message message = message(partition, offset);
        if (message.state != State.AVAILABLE)
        {
            throw new IllegalStateException("delivered " + message + ", which is not available");
        }
        if (message.deliveries > 0)
        {
            redeliveriesSinceOpen++;
        }
        message.deliveries++;
        message.state = State.ACQUIRED;
        message.holder = holder;
        message.lockDeadline = now + lockTimeoutMillis;
        return new Delivery(partition, offset, message.deliveries, message.value);
    }

    /** Whether a settlement by this receipt takes effect, and if not, why. Changes nothing. */
    public Outcome check(final Receipt receipt)
    {
        if (receipt.partition() < 0 || receipt.partition() >= partitions.size() || receipt.offset() < 0 ||
            receipt.offset() >= partitions.get(receipt.partition()).size())
        {
            return Outcome.UNKNOWN_DELIVERY;
        }
        final Message message = message(receipt.partition(), receipt.offset());
        if (message.deliveries == 0)
        {
            return Outcome.UNKNOWN_DELIVERY;
        }
        if (message.state == State.ACKED || message.state == State.DEAD)
        {
            return Outcome.ALREADY_SETTLED;
        }
        if (receipt.deliveryNumber() < 1 || receipt.deliveryNumber() > message.deliveries)
        {
            return Outcome.UNKNOWN_DELIVERY;
        }
        if (receipt.deliveryNumber() < message.deliveries || message.state != State.ACQUIRED)
        {
            return Outcome.STALE;
        }
        return Outcome.DONE;
    }

    public Outcome ack(final Receipt receipt)
    {
        final Outcome outcome = check(receipt);
        if (outcome == Outcome.DONE)
        {
            held(receipt).state = State.ACKED;
        }
        return outcome;
    }

    public Outcome nack(final Receipt receipt, final long now)
    {
        final Outcome outcome = check(receipt);
        if (outcome == Outcome.DONE)
        {
            comeBack(held(receipt), now);
        }
        return outcome;
    }

    public Outcome nackWithDelay(final Receipt receipt, final long delayMillis, final long now)
    {
        final Outcome outcome = check(receipt);
        if (outcome == Outcome.DONE)
        {
            final Message message = held(receipt);
            if (message.hasExpired(now))
            {
                message.holder = null;
                die(message, "expired");
            }
            else if (isOverLimit(message))
            {
                die(message, "delivery_limit");
            }
            else
            {
                message.state = State.DELAYED;
                message.delayedUntil = now + delayMillis;
            }
        }
        return outcome;
    }

    public Outcome reject(final Receipt receipt)
    {
        final Outcome outcome = check(receipt);
        if (outcome == Outcome.DONE)
        {
            die(held(receipt), "rejected");
        }
        return outcome;
    }

    public Outcome extend(final Receipt receipt, final long lockMillis, final long now)
    {
        final Outcome outcome = check(receipt);
        if (outcome == Outcome.DONE)
        {
            held(receipt).lockDeadline = now + lockMillis;
        }
        return outcome;
    }

    /**
     * Time is {@code now}: waiting messages past their time to live go dead, locks that ended come back, delays that
     * ended make their message available.
     */
    public void timeIs(final long now)
    {
        for (final Message message : allMessages())
        {
            if ((message.state == State.AVAILABLE || message.state == State.DELAYED) && message.hasExpired(now))
            {
                die(message, "expired");
            }
            else if (message.state == State.ACQUIRED && message.lockDeadline <= now)
            {
                comeBack(message, now);
            }
            else if (message.state == State.DELAYED && message.delayedUntil <= now)
            {
                message.state = State.AVAILABLE;
            }
        }
    }

    /** A consumer closed: everything it held comes back. */
    public void release(final String holder, final long now)
    {
        for (final Message message : allMessages())
        {
            if (message.state == State.ACQUIRED && message.holder.equals(holder))
            {
                comeBack(message, now);
            }
        }
    }

    /**
     * The engine shut down cleanly and opened again: {@code closedConsumers} were closed while it shut down (what
     * they held came back before it stopped), then nobody held anything when it opened, delays stand, and the
     * counters that count since the subscription was opened start again (what came back while opening counts for the
     * new run).
     */
    public void restart(final List<String> closedConsumers, final long now)
    {
        closedConsumers.forEach(holder -> release(holder, now));
        deadSinceOpen = 0;
        redeliveriesSinceOpen = 0;
        for (final Message message : allMessages())
        {
            if (message.state == State.ACQUIRED)
            {
                comeBack(message, now);
            }
        }
    }

    public long count(final State state)
    {
        return allMessages().stream().filter(m -> m.state == state).count();
    }

    /** How long the oldest available message has waited since it was published, or 0 when none is available. */
    public long oldestAvailableAge(final long now)
    {
        return allMessages().stream().filter(m -> m.state == State.AVAILABLE)
            .mapToLong(m -> now - m.publishedAt).max().orElse(0);
    }

    /** The lowest offset of the partition that is neither acked nor dead, or its end offset if there is none. */
    public long lowestUnsettled(final int partition)
    {
        return partitions.get(partition).stream().filter(m -> m.state != State.ACKED && m.state != State.DEAD)
            .mapToLong(m -> m.offset).min().orElse(partitions.get(partition).size());
    }

    public int heldBy(final String holder)
    {
        return (int)allMessages().stream().filter(m -> m.state == State.ACQUIRED && m.holder.equals(holder)).count();
    }

    /** Deaths since the subscription was last opened. */
    public long deadSinceOpen()
    {
        return deadSinceOpen;
    }

    /** Deliveries that were not a message's first, since the subscription was last opened. */
    public long redeliveriesSinceOpen()
    {
        return redeliveriesSinceOpen;
    }

    /** Every dead letter ever produced, in the order the messages died. */
    public List<DeadLetter> deadLetters()
    {
        return List.copyOf(deadLetters);
    }

    /** A held message comes back: dead if its time to live passed or it used up its deliveries, else available. */
    private void comeBack(final Message message, final long now)
    {
        message.holder = null;
        if (message.hasExpired(now))
        {
            die(message, "expired");
        }
        else if (isOverLimit(message))
        {
            die(message, "delivery_limit");
        }
        else
        {
            message.state = State.AVAILABLE;
        }
    }

    private boolean isOverLimit(final Message message)
    {
        return deliveryLimit != UNLIMITED && message.deliveries > deliveryLimit;
    }

    private void die(final Message message, final String reason)
    {
        message.state = State.DEAD;
        message.holder = null;
        deadSinceOpen++;
        deadLetters.add(new DeadLetter(message.partition, message.offset, reason, message.deliveries));
    }

    private Message held(final Receipt receipt)
    {
        return message(receipt.partition(), receipt.offset());
    }

    private Message message(final int partition, final long offset)
    {
        return partitions.get(partition).get((int)offset);
    }

    private List<Message> allMessages()
    {
        final List<Message> all = new ArrayList<>();
        partitions.forEach(all::addAll);
        return all;
    }

    @Override
    public String toString()
    {
        return "QueueModel{lock=" + lockTimeoutMillis + "ms, limit=" + deliveryLimit + ", " + partitions + '}';
    }
}
