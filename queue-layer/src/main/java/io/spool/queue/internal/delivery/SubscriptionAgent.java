package io.spool.queue.internal.delivery;

import io.spool.api.queue.QueueException;
import io.spool.api.queue.Receipt;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.QueueConsumer;
import io.spool.queue.internal.state.Settlement;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The owner of a subscription's message state. Its pass applies settlements, ends due locks and delays, pushes
 * deliveries to consumers within their credit, answers receives (long-polling ones when messages arrive or their
 * wait ends), and journals what changed once per pass (group commit). Other threads talk to it only through its
 * request queue and the consumers' settlement rings, so the state needs no lock. Which consumer or receive gets which
 * ready message is {@link Dispatcher}'s to decide; carrying out requests and holding their answers until the commit is
 * {@link AgentRequestHandler}'s.
 * <p>
 * The pass runs on the agent's own thread, or on the thread of a push consumer that ran out of deliveries
 * ({@link #passOnConsumerThread()}). A flag taken by compare-and-set admits one pass at a time, and its release
 * publishes the pass's writes to the next thread that takes it; a thread that finds the flag taken goes on with its
 * own work and never waits for it. "Agent thread" in this package means whichever thread holds the pass.
 * <p>
 * Design note: when a consumer and the agent shared one CPU, every hand-over of credit was a switch from one thread
 * to the other and back, which made such drains far slower than drains with a CPU each. A consumer that runs the
 * pass itself needs no switch; with a CPU each, the agent's thread still finds the acks
 * first and keeps the consumer supplied while it reads.
 * <p>
 * Thread-safe: every method but {@link #run()} may be called from any thread.
 */
public final class SubscriptionAgent implements Runnable
{
    /** What {@link #tryPass()} returns when another thread is running the pass. */
    private static final int PASS_ELSEWHERE = -1;
    /**
     * Least time from the start of one of the agent thread's passes to the start of its next. Design note: every pass
     * takes the cache lines of each push consumer's ack count and hand-off over to the agent's core and back, and the
     * consumer waits for them. With the journal written through a mapping rather than a system call per pass, an
     * unpaced agent ran many more passes of fewer messages each, paying that trip for every small batch, and a push
     * consumer at high prefetch got slower; a short least interval gives each pass a batch worth the trip, while a
     * long one lets the consumer run dry (docs/decisions/001-journal-through-a-mapped-tail.md). Passes on a consumer's
     * thread are not paced: that consumer ran dry.
     */
    private static final long MIN_PASS_INTERVAL_NANOS = 2_500;
    private static final VarHandle PASS_TAKEN;

    static
    {
        try
        {
            PASS_TAKEN = MethodHandles.lookup().findVarHandle(SubscriptionAgent.class, "passTaken", boolean.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final String name;
    /** The random number every receipt of this subscription carries, drawn when it was created. */
    private final long issuer;
    private final PassClock clock;
    private final PartitionWorker[] partitions;
    private final OverflowControl overflow;
    private final SettlementIntake intake;
    private final List<QueueConsumer> consumers = new ArrayList<>();
    private final Dispatcher dispatcher;
    private final AgentRequestHandler requests;
    private final Thread thread;
    private volatile boolean running = true;
    /** Why the agent thread ended before it was closed, or null. */
    private volatile Throwable failure;
    /** True while the agent thread parks, so senders unpark it only then. */
    private volatile boolean idle;
    private final LookBeforePark lookBeforePark = new LookBeforePark();
    private final IdleBackoff idleBackoff = new IdleBackoff();
    /** Up while a thread runs a pass: the agent's thread, or a push consumer's that ran out of deliveries. */
    private volatile boolean passTaken;

    public SubscriptionAgent(final String name, final long issuer, final PassClock clock,
        final PartitionWorker[] partitions, final SubscriptionSettings settings)
    {
        this.issuer = issuer;
        this.overflow = new OverflowControl(settings, partitions);
        this.dispatcher = new Dispatcher(partitions, settings.singleActiveConsumer());
        this.name = name;
        this.clock = clock;
        this.partitions = partitions;
        this.intake = new SettlementIntake(name, issuer, partitions);
        this.requests = new AgentRequestHandler(clock, partitions, intake, dispatcher, consumers);
        this.thread = new Thread(this, "spool-subscription-" + name);
        this.thread.setDaemon(true);
        for (final PartitionWorker partition : partitions)
        {
            partition.state().lockExpiryHandler((offset, consumerId, deliveryNumber) ->
                tellLockExpired(partition.partition(), offset, consumerId, deliveryNumber));
        }
    }

    private void tellLockExpired(final int partition, final long offset, final int consumerId, final int deliveryNumber)
    {
        for (int i = 0; i < consumers.size(); i++)
        {
            if (consumers.get(i).id() == consumerId)
            {
                consumers.get(i).lockExpired(new Receipt(issuer, partition, offset, deliveryNumber));
                return;
            }
        }
    }

    /**
     * Starts the agent thread, once the overflow state is known: a publisher checking right after a restart must
     * find a full subscription full.
     */
    public void start()
    {
        for (final PartitionWorker partition : partitions)
        {
            partition.noteLogEnd();
        }
        overflow.measure();
        thread.start();
    }

    public String name()
    {
        return name;
    }

    public long issuer()
    {
        return issuer;
    }

    /** What a consumer's settlement of a receipt this subscription did not issue gets; nothing changes. */
    public QueueException foreignReceipt(final Settlement settlement, final Receipt receipt)
    {
        return intake.foreign(settlement, receipt);
    }

    boolean isRunning()
    {
        return running;
    }

    public PartitionWorker[] partitions()
    {
        return partitions;
    }

    public OverflowControl overflow()
    {
        return overflow;
    }

    /** Makes sure the agent looks at its inputs soon: unparks it if it sleeps, else it will see them anyway. */
    public void wake()
    {
        if (idle)
        {
            // Senders that find the flag down after this one skip their unpark: one wakes the agent.
            idle = false;
            LockSupport.unpark(thread);
        }
    }

    /** Unparks the agent whether it sleeps or not, for a sender that is itself about to wait for it. */
    public void wakeNow()
    {
        LockSupport.unpark(thread);
    }

    /** Sends a request and waits for the agent to complete it. */
    public AgentRequest call(final AgentRequest request)
    {
        if (!running)
        {
            throw stopped();
        }
        while (!requests.offer(request))
        {
            wakeNow();
            LockSupport.parkNanos(10_000);
        }
        wake();
        request.await(this);
        return request;
    }

    /**
     * Sends a request made with a future and returns at once; the future completes on the agent's thread (or
     * exceptionally here, when the agent has stopped).
     */
    public void submit(final AgentRequest request)
    {
        if (!running)
        {
            request.fail(stopped());
            return;
        }
        while (!requests.offer(request))
        {
            wakeNow();
            LockSupport.parkNanos(10_000);
        }
        wake();
        if (!running)
        {
            // Offered after the stopped agent drained its queue: nobody else will answer it.
            request.fail(stopped());
        }
    }

    @Override
    public void run()
    {
        try
        {
            while (running)
            {
                final long passStart = System.nanoTime();
                final int work = tryPass();
                if (work > 0)
                {
                    lookBeforePark.workDone();
                    idleBackoff.workDone();
                    paceFrom(passStart);
                }
                else if (work == PASS_ELSEWHERE)
                {
                    // A consumer's thread is running the pass; it does whatever this one would have found.
                    Thread.yield();
                }
                else if (!lookBeforePark.lookAgain())
                {
                    idle = true;
                    // Checked after the flag is up: a sender that wrote before seeing it is found here.
                    if (nothingPending())
                    {
                        LockSupport.parkNanos(this, idleBackoff.parkNanos());
                    }
                    idle = false;
                }
            }
        }
        catch (final RuntimeException | Error ex)
        {
            // Left to the thread's handler to report; callers learn of it from stopped() instead of waiting on.
            failure = ex;
            throw ex;
        }
        finally
        {
            running = false;
            // Held from here on: a pass a consumer's thread is in ends, and none starts again.
            while (!takePass())
            {
                Thread.yield();
            }
            requests.failPending(stopped());
        }
    }

    /**
     * Agent thread, after a pass that did work: yields until {@link #MIN_PASS_INTERVAL_NANOS} have passed since it
     * began, so that work arriving meanwhile waits for the next pass. Time here is the machine's, as in
     * {@link LookBeforePark}: it paces a thread, and a frozen test clock must not stop it.
     */
    private static void paceFrom(final long passStart)
    {
        while (System.nanoTime() - passStart < MIN_PASS_INTERVAL_NANOS)
        {
            Thread.yield();
        }
    }

    /**
     * Runs one pass unless another thread is running one, in which case that pass does the work: nobody waits for
     * the pass.
     *
     * @return the amount of work done, 0 if none or if the agent stopped, {@link #PASS_ELSEWHERE} if another thread
     * held the pass.
     */
    private int tryPass()
    {
        if (!takePass())
        {
            return PASS_ELSEWHERE;
        }
        try
        {
            return running ? doWork() : 0;
        }
        finally
        {
            releasePass();
        }
    }

    /**
     * A push consumer's thread, out of deliveries: runs the pass itself rather than wait for the agent's thread to be
     * scheduled, unless a pass is running. On one core this spares a switch to the agent's thread and back per
     * hand-over. A failure stops the agent as one on its own thread would, and is reported without ending the
     * consumer's thread. The thread's interrupt flag is kept aside for the pass: an interrupt during a journal write
     * would close the journal's channel.
     *
     * @return the amount of work done, 0 or less if none.
     */
    public int passOnConsumerThread()
    {
        final boolean interrupted = Thread.interrupted();
        try
        {
            return tryPass();
        }
        catch (final RuntimeException | Error ex)
        {
            failure = ex;
            running = false;
            wakeNow();
            final Thread current = Thread.currentThread();
            current.getUncaughtExceptionHandler().uncaughtException(current, ex);
            return 0;
        }
        finally
        {
            if (interrupted)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Takes the pass flag if no thread holds it; the plain look first spares the flag's line a write. */
    private boolean takePass()
    {
        return !passTaken && PASS_TAKEN.compareAndSet(this, false, true);
    }

    /** Lets the pass go: its writes are seen by the next thread to take it. */
    private void releasePass()
    {
        PASS_TAKEN.setRelease(this, false);
    }

    /** Agent thread: whether it may park, nothing waiting for a pass; never while another thread runs one. */
    private boolean nothingPending()
    {
        if (!takePass())
        {
            return false;
        }
        try
        {
            return requests.noneQueued() && !intake.hasPending(consumers) && running;
        }
        finally
        {
            releasePass();
        }
    }

    /** What a call to a subscription whose agent no longer runs gets: closed, or failed and why. */
    QueueException stopped()
    {
        final Throwable cause = failure;
        return cause == null ? new QueueException("subscription " + name + " is closed") :
            new QueueException("subscription " + name + " stopped: its agent failed with " + cause, cause);
    }

    /**
     * One pass over everything the agent owns.
     *
     * @return the amount of work done; 0 lets the thread idle.
     */
    int doWork()
    {
        clock.update();
        int work = requests.handleQueued();
        work += intake.apply(consumers);
        for (final PartitionWorker partition : partitions)
        {
            work += partition.refresh();
        }
        work += overflow.enforce();
        work += dispatcher.push(consumers);
        work += requests.serveReceives();
        for (final PartitionWorker partition : partitions)
        {
            work += partition.readAhead();
        }
        if (work > 0)
        {
            // Pushes and receives after enforce() took messages off the backlog: publishers are to see it as the
            // pass leaves it, not full for a pass longer.
            overflow.measure();
            for (final PartitionWorker partition : partitions)
            {
                partition.commit();
            }
        }
        requests.releaseAnswers();
        return work;
    }

    /**
     * Stops the thread after its current pass, journals, and closes the partitions.
     */
    public void close()
    {
        for (final QueueConsumer consumer : new ArrayList<>(consumers))
        {
            consumer.close();
        }
        running = false;
        wake();
        try
        {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        for (final PartitionWorker partition : partitions)
        {
            partition.commit();
            partition.close();
        }
    }

    public void removeConsumer(final QueueConsumer consumer)
    {
        if (!running)
        {
            return;
        }
        final AgentRequest request = new AgentRequest(AgentRequest.Kind.REMOVE_CONSUMER);
        request.consumer = consumer;
        call(request);
    }
}
