package io.spool.queue.internal.delivery;

import io.spool.api.EngineClosedException;
import io.spool.api.SpoolException;
import io.spool.api.log.HeadersCodec;
import io.spool.api.log.RecordView;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.log.PartitionLog;
import io.spool.queue.DeathHistory;
import io.spool.queue.Delivery;
import io.spool.queue.SubscriptionRegistry;
import io.spool.queue.internal.state.DueDeadLetters;
import io.spool.queue.internal.state.PartitionCounts;
import io.spool.queue.internal.state.SubscriptionPartitionState;
import io.spool.queue.internal.store.SubscriptionStateStore;
import org.agrona.concurrent.EpochClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * One partition of a subscription, as its agent runs it: the message state and its durable store, and a reader
 * that fetches the records the state hands out. Owned by the subscription's agent thread; not thread-safe, but for
 * {@link DeadLetterOutcomes}, which the dead-letter topic's confirms call on their own thread.
 * <p>
 * Dead letters: a death is journaled with the copy it owes to the dead-letter topic; the copy is sent only after
 * that commit (so no crash can leave a copy stored for a message the subscription still holds), and its
 * confirmation is journaled in a later pass. What a crash leaves owed, the next open sends again
 * ({@link DeadLetterReplay}).
 */
public final class PartitionWorker implements DeadLetterOutcomes
{
    private static final Logger LOGGER = LoggerFactory.getLogger(PartitionWorker.class);
    /** Messages read ahead for their expiry per agent pass: enough to keep up, small enough to keep passes short. */
    private static final int EXPIRY_READ_AHEAD_PER_PASS = 1024;
    /** How long a close or an open waits for the dead-letter topic to confirm the letters sent; the rest stay owed. */
    private static final long LETTER_CONFIRM_WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final String subscription;
    private final long issuer;
    private final String topic;
    private final int partition;
    private final PartitionLog log;
    private final EpochClock clock;
    private String deadLetterTopic;
    private DeadLetterSink deadLetters;
    private final RecordFinder finder;
    private SubscriptionStateStore store;
    private SubscriptionPartitionState state;
    private RecordInspector inspector;
    private RecordInspector readAheadInspector;
    /** Reads each record's bytes as the log end passes it, when an overflow limit counts them; else null. */
    private RecordInspector arrivalInspector;
    /** The ack floor as of the agent's last pass, for work-queue retention on another thread. */
    private volatile long publishedAckFloor;
    /** Offsets whose dead letter the topic stored or refused for good, for the agent to journal. */
    private final Queue<Long> lettersSettled = new ConcurrentLinkedQueue<>();
    private final AtomicInteger lettersInFlight = new AtomicInteger();
    private Runnable wakeOnLetters = () -> {};
    /** Made once: a pass sends through it without allocating. */
    private final Consumer<DueDeadLetters.Letter> sendLetter = this::send;

    public PartitionWorker(final String subscription, final long issuer, final String topic, final int partition,
        final PartitionLog log, final EpochClock clock, final String deadLetterTopic, final DeadLetterSink deadLetters)
    {
        this.subscription = subscription;
        this.issuer = issuer;
        this.topic = topic;
        this.partition = partition;
        this.log = log;
        this.clock = clock;
        this.deadLetterTopic = deadLetterTopic;
        this.deadLetters = deadLetters;
        this.finder = new RecordFinder(log);
    }

    /**
     * Attaches the opened state store (it needs this worker as its dead-letter handler, hence two steps) and lets
     * its state read message traits from the log.
     */
    public void attach(final SubscriptionStateStore store, final SubscriptionSettings settings)
    {
        this.store = store;
        this.state = store.state();
        this.inspector = new RecordInspector(log.newReader(), subscription, settings);
        state.inspector(inspector);
        state.readAheadInspector(readAheadInspector(settings));
        if (settings.hasOverflowLimit())
        {
            arrivalInspector = new RecordInspector(log.newReader(), subscription, settings);
            state.arrivalInspector(arrivalInspector);
        }
        state.attached();
        this.publishedAckFloor = lowestKept();
    }

    /** What to call when a dead letter's outcome arrives, so the agent journals it without waiting for other work. */
    public void wakeOnLetters(final Runnable wake)
    {
        this.wakeOnLetters = wake;
    }

    /** Agent thread: the changeable settings of a live subscription take effect; see
     * {@link SubscriptionRegistry#update}. */
    void update(final SubscriptionSettings settings, final DeadLetterSink sink)
    {
        this.deadLetterTopic = settings.deadLetterTopic();
        this.deadLetters = sink;
        state.update(settings);
    }

    /** The reader of message traits ahead of delivery; the store uses it already while it restores. */
    RecordInspector readAheadInspector(final SubscriptionSettings settings)
    {
        if (readAheadInspector == null)
        {
            readAheadInspector = new RecordInspector(log.newReader(), subscription, settings);
        }
        return readAheadInspector;
    }

    int partition()
    {
        return partition;
    }

    public SubscriptionPartitionState state()
    {
        return state;
    }

    public PartitionLog log()
    {
        return log;
    }

    public long publishedAckFloor()
    {
        return publishedAckFloor;
    }

    /**
     * Tells the state how far the log reaches, ends due locks and delays, and (with ordered groups) meets the messages
     * that arrived.
     *
     * @return the work done.
     */
    int refresh()
    {
        return settleLetters() + noteLogEnd() + state.expireDue() + state.meetArrivals();
    }

    /**
     * Journals (with the next commit) the dead letters the topic stored or refused for good.
     *
     * @return how many.
     */
    int settleLetters()
    {
        int settled = 0;
        Long offset;
        while ((offset = lettersSettled.poll()) != null)
        {
            state.deadLetterStored(offset);
            settled++;
        }
        return settled;
    }

    /**
     * Tells the state how far the log reaches, and where it starts now that retention may have removed segments.
     *
     * @return 1 if the log grew, else 0.
     */
    int noteLogEnd()
    {
        final long end = log.endOffset();
        final int grew = end > state.logEnd() ? 1 : 0;
        if (grew == 1)
        {
            state.logEnd(end);
        }
        state.logStart(log.startOffset());
        return grew;
    }

    /**
     * Reads messages ahead of delivery for their expiry; run after the pass's deliveries, so that messages consumers
     * take at once are read only by delivery.
     *
     * @return the number of messages read.
     */
    int readAhead()
    {
        return state.readAheadForExpiry(EXPIRY_READ_AHEAD_PER_PASS);
    }

    /**
     * Fills {@code delivery} with the record at {@code offset}.
     *
     * @return false when retention has already removed the record.
     */
    boolean read(final long offset, final int deliveryNumber, final Delivery delivery)
    {
        final RecordView record = finder.find(offset);
        if (record == null)
        {
            return false;
        }
        delivery.fill(subscription, issuer, partition, deliveryNumber, state.firstDeliveryTime(offset), record);
        return true;
    }

    /** Messages ready across the partitions, as {@link PartitionCounts#readyCount()} counts them. */
    static long readyCount(final PartitionWorker[] partitions)
    {
        long ready = 0;
        for (final PartitionWorker partition : partitions)
        {
            ready += partition.state().counts().readyCount();
        }
        return ready;
    }

    /**
     * Journals what this pass changed, then sends the dead letters that commit made owed, and publishes the ack
     * floor; retention keeps what a dead letter still has to copy.
     */
    void commit()
    {
        store.commit();
        state.dueDeadLetters().sendUnsent(sendLetter);
        publishedAckFloor = lowestKept();
    }

    private long lowestKept()
    {
        return Math.min(state.ackFloor(), state.dueDeadLetters().lowestOffset());
    }

    /** Dead letters sent and not yet stored or refused. */
    int lettersInFlight()
    {
        return lettersInFlight.get();
    }

    /**
     * Waits, for a bounded time, until the dead-letter topic answered every letter sent, and journals the answers:
     * what it did not answer stays owed, for the next open.
     */
    void awaitLetters()
    {
        final long deadline = System.nanoTime() + LETTER_CONFIRM_WAIT_NANOS;
        while (lettersInFlight.get() > 0 && System.nanoTime() - deadline < 0)
        {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        if (settleLetters() > 0)
        {
            store.commit();
        }
    }

    void snapshot()
    {
        store.snapshot();
    }

    long journalBytes()
    {
        return store.journalBytes();
    }

    /**
     * Publishes the copy of a dead message, with its death history, to the dead-letter topic. The view is copied out
     * before anything else uses the reader. A letter that cannot be sent (no dead-letter topic any more, or
     * retention already took the record) is owed no more.
     */
    private void send(final DueDeadLetters.Letter letter)
    {
        final RecordView record = deadLetterTopic == null ? null : finder.find(letter.offset);
        if (record == null)
        {
            if (deadLetterTopic != null)
            {
                LOGGER.warn("dead letter of subscription " + subscription + " (" + topic + " partition " + partition +
                    " offset " + letter.offset + ") was not sent: retention removed its record first");
            }
            lettersSettled.add(letter.offset);
            wakeOnLetters.run();
            return;
        }
        final Map<String, byte[]> headers = DeathHistory.record(
            HeadersCodec.decode(record.buffer(), record.headersOffset(), record.headersLength()),
            topic, subscription, partition, letter.offset, letter.reason, letter.deliveries, letter.timeMillis);
        lettersInFlight.incrementAndGet();
        deadLetters.send(deadLetterTopic, record.keyBytes(), HeadersCodec.encode(headers), record.valueBytes(),
            letter.offset);
    }

    @Override
    public void letterStored(final long offset)
    {
        lettersSettled.add(offset);
        lettersInFlight.decrementAndGet();
        wakeOnLetters.run();
    }

    /**
     * A letter refused because the engine is closing stays owed, for the next open; one refused for what it is
     * (too large, an unknown topic) never will be stored, and is owed no more.
     */
    @Override
    public void letterRefused(final long offset, final SpoolException error)
    {
        if (!(error instanceof EngineClosedException))
        {
            LOGGER.error("dead letter of subscription " + subscription + " (" + topic + " partition " + partition +
                " offset " + offset + ") could not be published to " + deadLetterTopic + ": " + error.getMessage());
            lettersSettled.add(offset);
        }
        lettersInFlight.decrementAndGet();
        wakeOnLetters.run();
    }

    /** Waits for the dead letters in flight first (see {@link #awaitLetters()}), then closes the files. */
    public void close()
    {
        if (store != null)
        {
            awaitLetters();
        }
        finder.close();
        if (inspector != null)
        {
            inspector.close();
            readAheadInspector.close();
        }
        if (arrivalInspector != null)
        {
            arrivalInspector.close();
        }
        if (store != null)
        {
            store.close();
        }
    }
}
