package io.spool.model;

import io.spool.model.QueueMessage.State;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * What one queue subscription should do with the messages of its topic, one message at a time, in plain lists:
 * each message's state, delivery count, holder, lock deadline, delay, expiry, group and size; the subscription's
 * settings; and the dead letters it produced. Written for clarity, not speed, and without any of the engine's code.
 * Time is whatever the caller says it is. Not thread-safe.
 * <p>
 * The rules, from the state machine of docs/design/queue-state-machine.md: an acquire hands out ready messages of a
 * partition lowest offset first; a delivery is named by (subscription, partition, offset, delivery number) and only
 * the latest delivery of a held message may settle it, so a receipt of another subscription names nothing here even
 * when that subscription delivered the same message; a settlement through the subscription acts on a delivery
 * whoever holds it, one through a push consumer only on a delivery that consumer holds; a message that comes back
 * (nack, lock expiry, its consumer leaving, a restart) after more
 * deliveries than the limit goes dead instead of available; a message past its time to live goes dead wherever it
 * waits, and one in a consumer's hands when it comes back.
 * <p>
 * Ordered groups (SQS FIFO): a message is ready only while no message of its group published before it is neither
 * acked nor dead, so only a group's first unsettled message can be ready. A receive (or a push consumer's credit)
 * that takes it takes along, in publish order and up to what it asked for, the messages of the group right behind
 * it that are available, all held by that one receiver: a run. The group stays blocked to everyone until the whole
 * run is acked or dead; a member that comes back unsettled (a nack, with or without delay, an expired lock, its
 * consumer leaving) brings back the members after it that are still held, which come back as any held message
 * does, so the group's next run starts again from the first of them, in order. A group belongs to the subscription,
 * not to a partition: the model does not care where the engine stored a group's messages.
 * <p>
 * Overflow (RabbitMQ's max length): the bounds are on ready messages and on their bytes (a released message counts
 * again, as it waits to be delivered again).
 * Under drop-head the oldest ready messages go dead (maxlen) until both bounds hold again; under the reject
 * policies a publish is refused while either bound is reached, and reject-publish-dlx dead-letters what it refused.
 */
public final class QueueModel
{
    public static final int UNLIMITED = -1;
    /** A message, or a subscription, that sets no time to live. */
    public static final long NO_TTL = -1;
    /** Where a dead letter of a message that was never stored (a refused publish) says it was. */
    public static final int NOT_STORED = -1;

    /** What the engine must answer to a settlement. */
    public enum Outcome
    {
        DONE, STALE, ALREADY_SETTLED, UNKNOWN_DELIVERY
    }

    /** Where ordered groups come from: nowhere (no groups), the group header, or the record key. */
    public enum GroupSource
    {
        NONE, HEADER, KEY
    }

    /** A subscription's settings, as far as the model needs them. */
    public record Settings(long lockTimeoutMillis, int deliveryLimit, long messageTtlMillis, GroupSource groups,
                           Overflow overflow)
    {
        public static Settings plain(final long lockTimeoutMillis, final int deliveryLimit)
        {
            return new Settings(lockTimeoutMillis, deliveryLimit, NO_TTL, GroupSource.NONE, Overflow.NONE);
        }
    }

    /**
     * What a publish carries: its value, record key and group header (null when absent), its own time to live
     * ({@link #NO_TTL} for none), and its size in bytes as the engine stored it, which only the byte bound uses.
     */
    public record Publication(String value, String key, String groupId, long ttlMillis, long bytes)
    {
    }

    /** Names one delivery of the subscription that made it. */
    public record Receipt(String subscription, int partition, long offset, int deliveryNumber)
    {
    }

    public record Delivery(String subscription, int partition, long offset, int deliveryNumber, String value)
    {
        public boolean redelivered()
        {
            return deliveryNumber > 1;
        }

        public Receipt receipt()
        {
            return new Receipt(subscription, partition, offset, deliveryNumber);
        }
    }

    public record DeadLetter(int partition, long offset, String reason, int deliveries, String value)
    {
    }

    /** Chooses which of several ready messages, equally old by their publish time, drop-head drops. */
    @FunctionalInterface
    public interface TieBreak
    {
        QueueMessage choose(List<QueueMessage> equallyOld);
    }

    private final String subscription;
    private final Settings settings;
    private final List<List<QueueMessage>> partitions = new ArrayList<>();
    private final List<DeadLetter> deadLetters = new ArrayList<>();
    private long published;
    private long deadSinceOpen;
    private long redeliveriesSinceOpen;

    public QueueModel(final String subscription, final int partitionCount, final Settings settings)
    {
        this.subscription = subscription;
        this.settings = settings;
        for (int p = 0; p < partitionCount; p++)
        {
            partitions.add(new ArrayList<>());
        }
    }

    /**
     * Stores a message at the end of its partition. It lives the shorter of its own time to live and the
     * subscription's; its group, if the subscription keeps ordered groups, is its group header or its key.
     *
     * @return the offset the message gets.
     */
    public long publish(final int partition, final Publication publication, final long now)
    {
        final List<QueueMessage> messages = partitions.get(partition);
        final String group = switch (settings.groups())
        {
            case NONE -> null;
            case HEADER -> publication.groupId();
            case KEY -> publication.key();
        };
        messages.add(new QueueMessage(partition, messages.size(), published++, publication.value(), group,
            publication.bytes(), now, expiry(publication.ttlMillis(), now)));
        return messages.size() - 1;
    }

    private long expiry(final long ttlMillis, final long now)
    {
        long expiresAt = Long.MAX_VALUE;
        if (ttlMillis != NO_TTL)
        {
            expiresAt = now + ttlMillis;
        }
        if (settings.messageTtlMillis() != NO_TTL)
        {
            expiresAt = Math.min(expiresAt, now + settings.messageTtlMillis());
        }
        return expiresAt;
    }

    /** Whether a reject policy refuses a publish now: a bound is reached. */
    public boolean refusesPublish()
    {
        return settings.overflow().policy() != Overflow.Policy.DROP_HEAD &&
            settings.overflow().isAtLimit(ready(), readyBytes());
    }

    /** A publish was refused: nothing is stored, and under reject-publish-dlx it is dead-lettered (maxlen). */
    public void refused(final Publication publication)
    {
        if (settings.overflow().policy() == Overflow.Policy.REJECT_PUBLISH_DLX)
        {
            deadLetters.add(new DeadLetter(NOT_STORED, NOT_STORED, "maxlen", 0, publication.value()));
        }
    }

    /**
     * Under drop-head, dead-letters (maxlen) the oldest ready message, by publish time, until both bounds hold or
     * nothing is ready. In a partition the oldest is the lowest offset; between partitions two messages published in
     * the same millisecond are equally old, and {@code tieBreak} says which of them goes.
     */
    public void enforceOverflow(final TieBreak tieBreak)
    {
        if (settings.overflow().policy() != Overflow.Policy.DROP_HEAD)
        {
            return;
        }
        while (settings.overflow().isOver(ready(), readyBytes()))
        {
            final List<QueueMessage> oldestOfEachPartition = new ArrayList<>();
            for (int partition = 0; partition < partitions.size(); partition++)
            {
                readyInOrder(partition).stream().findFirst().ifPresent(oldestOfEachPartition::add);
            }
            if (oldestOfEachPartition.isEmpty())
            {
                return;
            }
            final long oldest = oldestOfEachPartition.stream().mapToLong(m -> m.publishedAt).min().orElseThrow();
            final List<QueueMessage> equallyOld = oldestOfEachPartition.stream().filter(m -> m.publishedAt == oldest)
                .toList();
            die(equallyOld.size() == 1 ? equallyOld.get(0) : tieBreak.choose(equallyOld), "maxlen");
        }
    }

    /**
     * What a receive of up to {@code max} from {@code partition} hands out, in order: the ready messages lowest
     * offset first, each head of a group followed by its run. Changes nothing.
     */
    public List<QueueMessage> plan(final int partition, final int max)
    {
        final List<QueueMessage> plan = new ArrayList<>();
        for (final QueueMessage ready : readyInOrder(partition))
        {
            if (plan.size() == max)
            {
                break;
            }
            plan.add(ready);
            for (final QueueMessage member : laterInGroup(ready))
            {
                if (plan.size() == max || !member.isSettled() && member.state != State.AVAILABLE)
                {
                    break;
                }
                if (!member.isSettled())
                {
                    plan.add(member);
                }
            }
        }
        return plan;
    }

    /**
     * Hands what {@link #plan} says to {@code holder}, locked for the lock timeout from {@code now}.
     */
    public List<Delivery> receive(final int partition, final int max, final String holder, final long now)
    {
        final List<Delivery> deliveries = new ArrayList<>();
        for (final QueueMessage message : plan(partition, max))
        {
            deliveries.add(hold(message, holder, now));
        }
        return deliveries;
    }

    /** The ready messages of a partition (available and not waiting for their group), lowest offset first. */
    public List<QueueMessage> readyInOrder(final int partition)
    {
        return partitions.get(partition).stream().filter(this::isReady)
            .sorted(Comparator.comparingLong(m -> m.offset)).toList();
    }

    private Delivery hold(final QueueMessage message, final String holder, final long now)
    {
        if (message.deliveries > 0)
        {
            redeliveriesSinceOpen++;
        }
        message.deliveries++;
        message.state = State.ACQUIRED;
        message.holder = holder;
        message.lockDeadline = now + settings.lockTimeoutMillis();
        return new Delivery(subscription, message.partition, message.offset, message.deliveries, message.value);
    }

    /** Whether a settlement by this receipt takes effect, and if not, why. Changes nothing. */
    public Outcome check(final Receipt receipt)
    {
        if (!receipt.subscription().equals(subscription) || receipt.partition() < 0 || receipt.partition() >= partitions.size() || receipt.offset() < 0 ||
            receipt.offset() >= partitions.get(receipt.partition()).size())
        {
            return Outcome.UNKNOWN_DELIVERY;
        }
        final QueueMessage message = message(receipt.partition(), receipt.offset());
        if (message.deliveries == 0)
        {
            return Outcome.UNKNOWN_DELIVERY;
        }
        if (message.isSettled())
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

    /** An ack through {@code holder}'s push consumer: it settles only what that consumer holds. */
    public Outcome ackBy(final String holder, final Receipt receipt)
    {
        final Outcome outcome = check(receipt);
        return outcome == Outcome.DONE && !holder.equals(held(receipt).holder) ? Outcome.UNKNOWN_DELIVERY :
            ack(receipt);
    }

    public Outcome ack(final Receipt receipt)
    {
        final Outcome outcome = check(receipt);
        if (outcome == Outcome.DONE)
        {
            held(receipt).state = State.ACKED;
            held(receipt).holder = null;
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

    /** A delayed message keeps its place in its group: the messages behind it wait for its delay too. */
    public Outcome nackWithDelay(final Receipt receipt, final long delayMillis, final long now)
    {
        final Outcome outcome = check(receipt);
        if (outcome == Outcome.DONE)
        {
            final QueueMessage message = held(receipt);
            returnRunBehind(message, now);
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
     * Time is {@code now}: waiting messages past their time to live go dead (also those waiting for their group),
     * locks that ended come back, delays that ended make their message available.
     */
    public void timeIs(final long now)
    {
        for (final QueueMessage message : allMessages())
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
        for (final QueueMessage message : allMessages())
        {
            if (message.state == State.ACQUIRED && message.holder.equals(holder))
            {
                comeBack(message, now);
            }
        }
    }

    /**
     * The engine shut down cleanly and opened again: {@code closedConsumers} were closed while it shut down (what
     * they held came back, and drop-head ran, before it stopped), then nobody held anything when it opened, delays
     * stand, and the counters that count since the subscription was opened start again (what came back while
     * opening counts for the new run).
     */
    public void restart(final List<String> closedConsumers, final long now, final TieBreak tieBreak)
    {
        closedConsumers.forEach(holder -> release(holder, now));
        if (!closedConsumers.isEmpty())
        {
            enforceOverflow(tieBreak);
        }
        deadSinceOpen = 0;
        redeliveriesSinceOpen = 0;
        for (final QueueMessage message : allMessages())
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

    /** Messages an acquire could hand out now: available and not waiting for an earlier message of their group. */
    public long ready()
    {
        return allMessages().stream().filter(this::isReady).count();
    }

    /** Messages in a consumer's hands whose time to live has passed: they expire when they come back. */
    public long heldPastTimeToLive(final long now)
    {
        return allMessages().stream().filter(m -> m.state == State.ACQUIRED && m.hasExpired(now)).count();
    }

    /** Available messages that wait for an earlier message of their group to be acked or to go dead. */
    public long waitingForGroup()
    {
        return count(State.AVAILABLE) - ready();
    }

    /** Bytes of the ready messages (the byte bound counts these). */
    public long readyBytes()
    {
        return allMessages().stream().filter(this::isReady).mapToLong(m -> m.bytes).sum();
    }

    /** How long the oldest ready message has waited since it was published, or 0 when none is ready. */
    public long oldestReadyAge(final long now)
    {
        return allMessages().stream().filter(this::isReady).mapToLong(m -> now - m.publishedAt).max().orElse(0);
    }

    /** The lowest offset of the partition that is neither acked nor dead, or its end offset if there is none. */
    public long lowestUnsettled(final int partition)
    {
        return partitions.get(partition).stream().filter(m -> !m.isSettled())
            .mapToLong(m -> m.offset).min().orElse(partitions.get(partition).size());
    }

    public int heldBy(final String holder)
    {
        return (int)allMessages().stream().filter(m -> m.state == State.ACQUIRED && m.holder.equals(holder)).count();
    }

    /** Deaths since the subscription was last opened (a refused publish never reached it, so it does not count). */
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

    private boolean isReady(final QueueMessage message)
    {
        return message.state == State.AVAILABLE && groupAhead(message) == null;
    }

    /** The earliest-published message of the same group still neither acked nor dead, if it came before this one. */
    private QueueMessage groupAhead(final QueueMessage message)
    {
        if (message.group == null)
        {
            return null;
        }
        return allMessages().stream()
            .filter(m -> m.sequence < message.sequence && Objects.equals(m.group, message.group) && !m.isSettled())
            .min(Comparator.comparingLong(m -> m.sequence)).orElse(null);
    }

    /** The messages of a group published after {@code message}, in publish order. */
    private List<QueueMessage> laterInGroup(final QueueMessage message)
    {
        if (message.group == null)
        {
            return List.of();
        }
        return allMessages().stream()
            .filter(m -> m.sequence > message.sequence && Objects.equals(m.group, message.group))
            .sorted(Comparator.comparingLong(m -> m.sequence)).toList();
    }

    /** A held message leaves its run unsettled: the run's members after it that are held come back first. */
    private void returnRunBehind(final QueueMessage message, final long now)
    {
        for (final QueueMessage member : laterInGroup(message))
        {
            if (member.isSettled())
            {
                continue;
            }
            if (member.state != State.ACQUIRED)
            {
                break;
            }
            comeBackAlone(member, now);
        }
    }

    /**
     * A held message comes back, and the members of its run after it: dead if its time to live passed or it used up
     * its deliveries, else available.
     */
    private void comeBack(final QueueMessage message, final long now)
    {
        returnRunBehind(message, now);
        comeBackAlone(message, now);
    }

    private void comeBackAlone(final QueueMessage message, final long now)
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

    private boolean isOverLimit(final QueueMessage message)
    {
        return settings.deliveryLimit() != UNLIMITED && message.deliveries > settings.deliveryLimit();
    }

    private void die(final QueueMessage message, final String reason)
    {
        message.state = State.DEAD;
        message.holder = null;
        deadSinceOpen++;
        deadLetters.add(new DeadLetter(message.partition, message.offset, reason, message.deliveries, message.value));
    }

    private QueueMessage held(final Receipt receipt)
    {
        return message(receipt.partition(), receipt.offset());
    }

    private QueueMessage message(final int partition, final long offset)
    {
        return partitions.get(partition).get((int)offset);
    }

    private List<QueueMessage> allMessages()
    {
        final List<QueueMessage> all = new ArrayList<>();
        partitions.forEach(all::addAll);
        return all;
    }

    @Override
    public String toString()
    {
        return "QueueModel{" + settings + ", " + partitions + '}';
    }
}
