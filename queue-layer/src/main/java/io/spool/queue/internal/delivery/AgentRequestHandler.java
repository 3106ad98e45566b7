package io.spool.queue.internal.delivery;

import io.spool.api.queue.QueueException;
import io.spool.api.queue.Receipt;
import io.spool.api.queue.SubscriptionMetrics;
import io.spool.queue.Delivery;
import io.spool.queue.QueueConsumer;
import io.spool.queue.internal.state.PartitionCounts;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;

import java.util.ArrayList;
import java.util.List;

/**
 * The agent's side of the requests other threads send it: takes them off its queue in a pass, carries each out,
 * keeps long-polling receives until messages arrive or their wait ends, and holds every answer back until the pass's
 * state changes are journaled, so that nobody sees an effect a crash could undo.
 * <p>
 * Not thread-safe: {@link #offer(AgentRequest)} may be called from any thread, everything else only by the thread
 * holding the agent's pass.
 */
final class AgentRequestHandler
{
    private final PassClock clock;
    private final PartitionWorker[] partitions;
    private final SettlementIntake intake;
    private final Dispatcher dispatcher;
    /** The agent's consumers, the same list its pass pushes to: consumers join and leave here. */
    private final List<QueueConsumer> consumers;
    private final ManyToOneConcurrentArrayQueue<AgentRequest> requests = new ManyToOneConcurrentArrayQueue<>(4096);
    private final List<AgentRequest> waitingReceives = new ArrayList<>();
    private final List<AgentRequest> barriers = new ArrayList<>();
    /** Answers held back until this pass's state changes are journaled. */
    private final List<AgentRequest> completions = new ArrayList<>();

    AgentRequestHandler(final PassClock clock, final PartitionWorker[] partitions, final SettlementIntake intake,
        final Dispatcher dispatcher, final List<QueueConsumer> consumers)
    {
        this.clock = clock;
        this.partitions = partitions;
        this.intake = intake;
        this.dispatcher = dispatcher;
        this.consumers = consumers;
    }

    /** Any thread: queues a request for the next pass; false while the queue is full. */
    boolean offer(final AgentRequest request)
    {
        return requests.offer(request);
    }

    /** Whether no request waits for a pass to take it. */
    boolean noneQueued()
    {
        return requests.isEmpty();
    }

    /**
     * Carries out every queued request; those that answer at once are held until {@link #releaseAnswers()}.
     *
     * @return the number of requests taken.
     */
    int handleQueued()
    {
        int handled = 0;
        AgentRequest request;
        while ((request = requests.poll()) != null)
        {
            // The caller may have moved the engine's clock after this pass first read it: the call, and the rest of
            // the pass, are to see that time.
            clock.update();
            handle(request);
            handled++;
        }
        return handled;
    }

    private void handle(final AgentRequest request)
    {
        try
        {
            switch (request.kind)
            {
                case RECEIVE:
                    waitingReceives.add(request);
                    break;
                case SETTLE:
                    for (final Receipt receipt : request.receipts)
                    {
                        request.errors.add(intake.settle(request.settlement, receipt, request.argument));
                    }
                    completions.add(request);
                    break;
                case ADD_CONSUMER:
                    consumers.add(request.consumer);
                    request.consumer.start();
                    request.complete();
                    break;
                case REMOVE_CONSUMER:
                    removeConsumer(request);
                    break;
                case METRICS:
                    request.metrics = metrics();
                    request.complete();
                    break;
                case UPDATE:
                    for (final PartitionWorker partition : partitions)
                    {
                        partition.update(request.settings, request.deadLetterSinks[partition.partition()]);
                    }
                    request.complete();
                    break;
                case BARRIER:
                    barriers.add(request);
                    break;
                default:
                    throw new IllegalStateException("unknown request " + request.kind);
            }
        }
        catch (final RuntimeException ex)
        {
            request.fail(ex);
        }
    }

    private void removeConsumer(final AgentRequest request)
    {
        final QueueConsumer consumer = request.consumer;
        intake.drain(consumer);
        consumers.remove(consumer);
        for (final PartitionWorker partition : partitions)
        {
            partition.state().releaseConsumer(consumer.id());
        }
        completions.add(request);
    }

    /**
     * Answers the waiting receives that got messages or whose wait ended.
     *
     * @return the number of receives answered.
     */
    int serveReceives()
    {
        int served = 0;
        final long now = clock.time();
        for (int r = 0; r < waitingReceives.size(); r++)
        {
            final AgentRequest request = waitingReceives.get(r);
            dispatcher.receive(request.max, request.lockMillis, request.deliveries);
            if (!request.deliveries.isEmpty() || now >= request.deadline)
            {
                completions.add(request);
                waitingReceives.remove(r--);
                served++;
            }
        }
        return served;
    }

    /**
     * After the journal commit: answer waiting callers, hand staged deliveries to consumers, and complete barriers.
     */
    void releaseAnswers()
    {
        for (int i = 0; i < completions.size(); i++)
        {
            completions.get(i).complete();
        }
        completions.clear();
        for (int i = 0; i < consumers.size(); i++)
        {
            consumers.get(i).handOverStaged();
        }
        for (int i = 0; i < barriers.size(); i++)
        {
            barriers.get(i).complete();
        }
        barriers.clear();
    }

    private SubscriptionMetrics metrics()
    {
        long ready = 0;
        long inFlight = 0;
        long delayed = 0;
        long dead = 0;
        long redeliveries = 0;
        long acks = 0;
        long oldestTimestamp = Long.MAX_VALUE;
        final Delivery probe = new Delivery();
        for (final PartitionWorker partition : partitions)
        {
            partition.refresh();
            partition.readAhead();
            final PartitionCounts counts = partition.state().counts();
            ready += counts.readyCount();
            inFlight += counts.inFlightCount();
            delayed += counts.delayedCount();
            dead += counts.deadCount();
            redeliveries += counts.redeliveryCount();
            acks += counts.ackCount();
            final long oldest = counts.oldestReadyOffset();
            if (oldest >= 0 && partition.read(oldest, 1, probe))
            {
                oldestTimestamp = Math.min(oldestTimestamp, probe.timestamp());
            }
        }
        final long age = oldestTimestamp == Long.MAX_VALUE ? 0 : Math.max(0, clock.time() - oldestTimestamp);
        return new SubscriptionMetrics(ready, inFlight, delayed, dead, redeliveries, age, consumers.size(), acks);
    }

    /**
     * Once the agent stopped and holds the pass for good: fails the queued requests with {@code stopped}, and
     * answers waiting receives (with what they have) and barriers.
     */
    void failPending(final QueueException stopped)
    {
        AgentRequest request;
        while ((request = requests.poll()) != null)
        {
            request.fail(stopped);
        }
        for (final AgentRequest waiting : waitingReceives)
        {
            waiting.complete();
        }
        waitingReceives.clear();
        for (final AgentRequest barrier : barriers)
        {
            barrier.complete();
        }
        barriers.clear();
    }
}
