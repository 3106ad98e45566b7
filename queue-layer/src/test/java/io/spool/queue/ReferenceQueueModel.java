package io.spool.queue;

import io.spool.api.queue.AlreadySettledException;
import io.spool.api.queue.QueueException;
import io.spool.api.queue.StaleReceiptException;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.queue.UnknownDeliveryException;
import io.spool.queue.internal.state.MessageState;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A deliberately plain model of one subscription partition: a sorted map from offset to a mutable message, no
 * windows, pages or timers. {@link SubscriptionStatePropertyTest} runs the same operations on it and on the real
 * state and compares them.
 */
final class ReferenceQueueModel
{
    static final class Message
    {
        MessageState state = MessageState.AVAILABLE;
        int deliveries;
        int holder = -1;
        long deadline = -1;
    }

    final TreeMap<Long, Message> delivered = new TreeMap<>();
    final long lockTimeoutMillis;
    final int deliveryLimit;
    long cursor;
    long logEnd;
    long now;

    ReferenceQueueModel(final long lockTimeoutMillis, final int deliveryLimit, final long now)
    {
        this.lockTimeoutMillis = lockTimeoutMillis;
        this.deliveryLimit = deliveryLimit;
        this.now = now;
    }

    /** @return the deliveries, each {offset, delivery number}. */
    List<long[]> acquire(final int max, final int consumer)
    {
        expireDue();
        final List<long[]> deliveries = new ArrayList<>();
        for (final Map.Entry<Long, Message> entry : delivered.entrySet())
        {
            if (deliveries.size() < max && entry.getValue().state == MessageState.AVAILABLE)
            {
                hold(entry.getValue(), consumer);
                deliveries.add(new long[]{entry.getKey(), entry.getValue().deliveries});
            }
        }
        while (deliveries.size() < max && cursor < logEnd)
        {
            final Message message = new Message();
            delivered.put(cursor, message);
            hold(message, consumer);
            deliveries.add(new long[]{cursor++, 1});
        }
        return deliveries;
    }

    /** The exception the real state must throw for this receipt, or null if it must accept it. */
    Class<? extends QueueException> refusal(final long offset, final int deliveryNumber)
    {
        final Message message = delivered.get(offset);
        if (message == null)
        {
            return UnknownDeliveryException.class;
        }
        if (message.state == MessageState.ACKED || message.state == MessageState.DEAD)
        {
            return AlreadySettledException.class;
        }
        if (deliveryNumber < 1 || deliveryNumber > message.deliveries)
        {
            return UnknownDeliveryException.class;
        }
        if (deliveryNumber < message.deliveries || message.state != MessageState.ACQUIRED)
        {
            return StaleReceiptException.class;
        }
        if (message.deadline <= now)
        {
            giveBack(message);
            return StaleReceiptException.class;
        }
        return null;
    }

    void ack(final long offset)
    {
        delivered.get(offset).state = MessageState.ACKED;
    }

    void nack(final long offset)
    {
        giveBack(delivered.get(offset));
    }

    void nackWithDelay(final long offset, final long delayMillis)
    {
        final Message message = delivered.get(offset);
        if (isOverLimit(message))
        {
            message.state = MessageState.DEAD;
            return;
        }
        message.state = MessageState.DELAYED;
        message.deadline = now + delayMillis;
    }

    void reject(final long offset)
    {
        delivered.get(offset).state = MessageState.DEAD;
    }

    void extend(final long offset, final long lockMillis)
    {
        delivered.get(offset).deadline = now + lockMillis;
    }

    void releaseConsumer(final int consumer)
    {
        for (final Message message : delivered.values())
        {
            if (message.state == MessageState.ACQUIRED && message.holder == consumer)
            {
                giveBack(message);
            }
        }
    }

    void expireDue()
    {
        for (final Message message : delivered.values())
        {
            if (message.state == MessageState.ACQUIRED && message.deadline <= now)
            {
                giveBack(message);
            }
            else if (message.state == MessageState.DELAYED && message.deadline <= now)
            {
                message.state = MessageState.AVAILABLE;
            }
        }
    }

    /** A restart releases every held delivery; delays, counts and settled messages stay. */
    void restart()
    {
        releaseAll();
    }

    long ackFloor()
    {
        for (final Map.Entry<Long, Message> entry : delivered.entrySet())
        {
            if (entry.getValue().state != MessageState.ACKED && entry.getValue().state != MessageState.DEAD)
            {
                return entry.getKey();
            }
        }
        return cursor;
    }

    long count(final MessageState state)
    {
        return delivered.values().stream().filter(message -> message.state == state).count();
    }

    long inFlightOf(final int consumer)
    {
        return delivered.values().stream()
            .filter(message -> message.state == MessageState.ACQUIRED && message.holder == consumer).count();
    }

    long oldestReadyOffset()
    {
        for (final Map.Entry<Long, Message> entry : delivered.entrySet())
        {
            if (entry.getValue().state == MessageState.AVAILABLE)
            {
                return entry.getKey();
            }
        }
        return cursor < logEnd ? cursor : -1;
    }

    private void releaseAll()
    {
        for (final Message message : delivered.values())
        {
            if (message.state == MessageState.ACQUIRED)
            {
                giveBack(message);
            }
        }
    }

    private void hold(final Message message, final int consumer)
    {
        message.state = MessageState.ACQUIRED;
        message.deliveries++;
        message.holder = consumer;
        message.deadline = now + lockTimeoutMillis;
    }

    private void giveBack(final Message message)
    {
        message.state = isOverLimit(message) ? MessageState.DEAD : MessageState.AVAILABLE;
    }

    private boolean isOverLimit(final Message message)
    {
        return deliveryLimit != SubscriptionSettings.UNLIMITED_DELIVERIES && message.deliveries > deliveryLimit;
    }
}
