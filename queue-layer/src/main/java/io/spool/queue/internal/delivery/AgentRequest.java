package io.spool.queue.internal.delivery;

import io.spool.api.SpoolException;
import io.spool.api.queue.QueueException;
import io.spool.api.queue.Receipt;
import io.spool.api.queue.SubscriptionMetrics;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.Delivery;
import io.spool.queue.QueueConsumer;
import io.spool.queue.internal.state.Settlement;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A call into a subscription's agent that waits for its answer: a receive, a batch of settlements, a consumer
 * joining or leaving, a metrics read, a settings change, a barrier. The caller parks until the agent completes it,
 * or, for a request made with a future, goes on and is told through the future. Not thread-safe: filled by the
 * caller, then owned by the agent until {@link #complete()}.
 */
public final class AgentRequest
{
    public enum Kind
    {
        RECEIVE, SETTLE, ADD_CONSUMER, REMOVE_CONSUMER, METRICS, UPDATE, BARRIER
    }

    final Kind kind;
    final Thread caller = Thread.currentThread();
    /** Completed on the agent's thread instead of unparking the caller, or null for a caller that waits. */
    final CompletableFuture<AgentRequest> future;
    public int max;
    public long deadline;
    /** A receive's lock, or 0 for the subscription's lock timeout. */
    public long lockMillis;
    public SubscriptionSettings settings;
    /** Each partition's dead-letter sink, by partition. */
    public DeadLetterSink[] deadLetterSinks;
    public Settlement settlement;
    public long argument;
    public List<Receipt> receipts;
    public QueueConsumer consumer;
    public final List<Delivery> deliveries = new ArrayList<>();
    public final List<SpoolException> errors = new ArrayList<>();
    public SubscriptionMetrics metrics;
    RuntimeException failure;
    private volatile boolean done;

    public AgentRequest(final Kind kind)
    {
        this(kind, null);
    }

    public AgentRequest(final Kind kind, final CompletableFuture<AgentRequest> future)
    {
        this.kind = kind;
        this.future = future;
    }

    void complete()
    {
        done = true;
        if (future != null)
        {
            if (failure != null)
            {
                future.completeExceptionally(failure);
            }
            else
            {
                future.complete(this);
            }
        }
        else
        {
            LockSupport.unpark(caller);
        }
    }

    void fail(final RuntimeException failure)
    {
        this.failure = failure;
        complete();
    }

    boolean isDone()
    {
        return done;
    }

    /**
     * Parks until the agent completes the request.
     *
     * @throws QueueException when the subscription closed first.
     */
    void await(final SubscriptionAgent agent)
    {
        while (!done)
        {
            if (!agent.isRunning())
            {
                throw agent.stopped();
            }
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(1));
        }
        if (failure != null)
        {
            throw failure;
        }
    }
}
