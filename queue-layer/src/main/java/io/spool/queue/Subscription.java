package io.spool.queue;

import io.spool.api.queue.BatchResult;
import io.spool.api.queue.ConsumerOptions;
import io.spool.api.InvalidRequestException;
import io.spool.api.queue.MessageListener;
import io.spool.api.queue.QueueException;
import io.spool.api.queue.QueueSubscription;
import io.spool.api.queue.Receipt;
import io.spool.api.queue.SubscriptionDescription;
import io.spool.api.queue.SubscriptionMetrics;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.internal.delivery.AgentRequest;
import io.spool.queue.internal.delivery.DeadLetterSink;
import io.spool.queue.internal.delivery.SubscriptionAgent;
import io.spool.queue.internal.state.ReceiptCheck;
import io.spool.queue.internal.state.Settlement;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A subscription on a topic: the topic's messages read as a queue, each tracked on its own. Many consumers on one
 * subscription compete for its messages (a work queue); several subscriptions on one topic each see every message
 * (pub/sub) without copying it.
 * <p>
 * Pull: {@link #receive} hands out up to N messages, locked for the lock timeout; settle each by its receipt with
 * {@link #ack}, {@link #nack}, {@link #reject} or {@link #extend}. Push: {@link #consume} starts a consumer with a
 * prefetch. A receipt that is stale (the message was redelivered since) or already settled is refused with a
 * specific {@link QueueException}, and the newer delivery is left alone; so is a receipt this subscription did not
 * issue ({@link Receipt}), such as one of another subscription of the topic that delivered the same message.
 * Settling by receipt here acts on the delivery whoever holds it (a pull receive or any push consumer), as SQS
 * lets any holder of a receipt handle delete the message; a {@link QueueConsumer} settles only its own.
 * <p>
 * Thread-safe.
 */
public final class Subscription implements QueueSubscription
{
    private final String name;
    private final String topic;
    private volatile SubscriptionSettings settings;
    private final SubscriptionAgent agent;
    private final org.agrona.concurrent.EpochClock clock;
    private final AtomicInteger consumerIds = new AtomicInteger(ReceiptCheck.PULL_CONSUMER + 1);

    Subscription(final String name, final String topic, final SubscriptionSettings settings,
        final SubscriptionAgent agent, final org.agrona.concurrent.EpochClock clock)
    {
        this.name = name;
        this.topic = topic;
        this.settings = settings;
        this.agent = agent;
        this.clock = clock;
    }

    public String name()
    {
        return name;
    }

    public String topic()
    {
        return topic;
    }

    public SubscriptionSettings settings()
    {
        return settings;
    }

    SubscriptionAgent agent()
    {
        return agent;
    }

    /**
     * Receives up to {@code max} messages, each locked for the subscription's lock timeout. When none is ready,
     * waits up to {@code waitMillis} (by the engine's clock) for one to arrive: long polling, no busy loop.
     *
     * @throws InvalidRequestException when {@code max} is not between 1 and 10,000 or the wait is negative, or the
     *                                 subscription has a single active consumer: its messages go to one push consumer
     *                                 at a time, in order, and a pull receive would take them past it.
     */
    public List<Delivery> receive(final int max, final long waitMillis)
    {
        return agent.call(receiveRequest(max, waitMillis, 0, null)).deliveries;
    }

    /**
     * {@link #receive(int, long)} with the deliveries locked for {@code lockMillis} instead of the subscription's lock
     * timeout, as an SQS receive may ask for its own visibility timeout.
     *
     * @throws InvalidRequestException when an argument is out of range.
     */
    public List<Delivery> receive(final int max, final long waitMillis, final long lockMillis)
    {
        checkLock(lockMillis);
        return agent.call(receiveRequest(max, waitMillis, lockMillis, null)).deliveries;
    }

    /**
     * {@link #receive(int, long, long)} without a thread waiting for it: a long poll holds no thread. The future
     * completes on the subscription's agent thread, so what depends on it must not block (use the {@code *Async}
     * stages with an executor of your own); it completes exceptionally with a {@link QueueException} when the
     * subscription closes first.
     *
     * @throws InvalidRequestException when an argument is out of range.
     */
    public CompletableFuture<List<Delivery>> receiveAsync(final int max, final long waitMillis, final long lockMillis)
    {
        checkLock(lockMillis);
        final CompletableFuture<AgentRequest> answered = new CompletableFuture<>();
        agent.submit(receiveRequest(max, waitMillis, lockMillis, answered));
        return answered.thenApply(request -> request.deliveries);
    }

    private AgentRequest receiveRequest(final int max, final long waitMillis, final long lockMillis,
        final CompletableFuture<AgentRequest> answered)
    {
        if (settings.singleActiveConsumer())
        {
            throw new InvalidRequestException("subscription " + name + " has a single active consumer, so receive is " +
                "refused: its messages go, in order, to one push consumer at a time; take them with consume(), or " +
                "pull from a subscription without singleActiveConsumer");
        }
        if (max < 1 || max > 10_000)
        {
            throw new InvalidRequestException("receive max must be between 1 and 10000, was " + max);
        }
        if (waitMillis < 0)
        {
            throw new InvalidRequestException("receive wait must be >= 0 ms, was " + waitMillis);
        }
        final AgentRequest request = new AgentRequest(AgentRequest.Kind.RECEIVE, answered);
        request.max = max;
        request.lockMillis = lockMillis;
        request.deadline = clock.time() + waitMillis;
        return request;
    }

    private static void checkLock(final long lockMillis)
    {
        if (lockMillis < 1 || lockMillis > SubscriptionSettings.MAX_LOCK_TIMEOUT_MILLIS)
        {
            throw new InvalidRequestException("a receive's lock must be between 1 ms and " +
                SubscriptionSettings.MAX_LOCK_TIMEOUT_MILLIS + " ms (12 h), was " + lockMillis + " ms");
        }
    }

    /** Settles the delivery as done. */
    public void ack(final Receipt receipt)
    {
        settleOne(Settlement.ACK, receipt, 0);
    }

    /** Returns the message to ready, to be delivered again (redelivered). */
    public void nack(final Receipt receipt)
    {
        settleOne(Settlement.NACK, receipt, 0);
    }

    /** Returns the message, due again after {@code delayMillis}; messages behind it are not held up. */
    public void nack(final Receipt receipt, final long delayMillis)
    {
        settleOne(Settlement.NACK_DELAYED, receipt, delayMillis);
    }

    /** Dead-letters the message with reason rejected. */
    public void reject(final Receipt receipt)
    {
        settleOne(Settlement.REJECT, receipt, 0);
    }

    /** Keeps the delivery locked until now plus {@code lockMillis}. */
    public void extend(final Receipt receipt, final long lockMillis)
    {
        settleOne(Settlement.EXTEND, receipt, lockMillis);
    }

    public BatchResult ack(final List<Receipt> receipts)
    {
        return settle(Settlement.ACK, receipts, 0);
    }

    public BatchResult nack(final List<Receipt> receipts)
    {
        return settle(Settlement.NACK, receipts, 0);
    }

    public BatchResult nack(final List<Receipt> receipts, final long delayMillis)
    {
        return settle(Settlement.NACK_DELAYED, receipts, delayMillis);
    }

    public BatchResult reject(final List<Receipt> receipts)
    {
        return settle(Settlement.REJECT, receipts, 0);
    }

    public BatchResult extend(final List<Receipt> receipts, final long lockMillis)
    {
        return settle(Settlement.EXTEND, receipts, lockMillis);
    }

    private void settleOne(final Settlement settlement, final Receipt receipt, final long argument)
    {
        final BatchResult result = settle(settlement, List.of(receipt), argument);
        if (!result.allSucceeded())
        {
            throw result.failed().get(receipt);
        }
    }

    private BatchResult settle(final Settlement settlement, final List<Receipt> receipts, final long argument)
    {
        final AgentRequest request = new AgentRequest(AgentRequest.Kind.SETTLE);
        request.settlement = settlement;
        request.receipts = List.copyOf(receipts);
        request.argument = argument;
        agent.call(request);
        return BatchResult.of(request.receipts, request.errors);
    }

    /**
     * Starts a push consumer: deliveries arrive on its own thread, never more unacked than the prefetch.
     */
    public QueueConsumer consume(final ConsumerOptions options, final DeliveryListener listener)
    {
        return consume(options, (MessageListener) listener);
    }

    /**
     * Starts a push consumer whose listener sees each delivery as a {@link io.spool.api.queue.Message} (a
     * {@link Delivery}); the same consumer as {@link #consume(ConsumerOptions, DeliveryListener)}.
     */
    @Override
    public QueueConsumer consume(final ConsumerOptions options, final MessageListener listener)
    {
        final QueueConsumer consumer = new QueueConsumer(consumerIds.getAndIncrement(), options, listener, agent);
        final AgentRequest request = new AgentRequest(AgentRequest.Kind.ADD_CONSUMER);
        request.consumer = consumer;
        agent.call(request);
        return consumer;
    }

    /** Agent thread takes the changed settings; see {@link SubscriptionRegistry#update}. */
    void update(final SubscriptionSettings changed, final DeadLetterSink[] sinks)
    {
        final AgentRequest request = new AgentRequest(AgentRequest.Kind.UPDATE);
        request.settings = changed;
        request.deadLetterSinks = sinks;
        agent.call(request);
        this.settings = changed;
    }

    public SubscriptionMetrics metrics()
    {
        return agent.call(new AgentRequest(AgentRequest.Kind.METRICS)).metrics;
    }

    /** Its topic, settings and metrics now. */
    public SubscriptionDescription describe()
    {
        return new SubscriptionDescription(name, topic, settings, metrics());
    }

    /**
     * Returns once the subscription's agent has finished a whole pass after this call: every earlier settlement,
     * due lock and delay by the engine's clock has taken effect. Tests and labs use it after moving the clock.
     */
    public void sync()
    {
        agent.call(new AgentRequest(AgentRequest.Kind.BARRIER));
    }

    @Override
    public String toString()
    {
        return "Subscription{" + name + " on " + topic + ", " + settings + '}';
    }
}
