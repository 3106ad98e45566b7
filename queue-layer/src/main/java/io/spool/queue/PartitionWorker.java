package io.spool.queue;

import io.spool.log.HeadersCodec;
import io.spool.log.PartitionLog;
import io.spool.log.RecordView;
import org.agrona.concurrent.EpochClock;

import java.util.Map;

/**
 * One partition of a subscription, as its agent runs it: the message state and its durable store, and a reader
 * that fetches the records the state hands out. Owned by the subscription's agent thread; not thread-safe.
 */
final class PartitionWorker implements DeadLetterHandler
{
    /** Messages read ahead for their expiry per agent pass: enough to keep up, small enough to keep passes short. */
    private static final int EXPIRY_READ_AHEAD_PER_PASS = 1024;

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

    PartitionWorker(final String subscription, final long issuer, final String topic, final int partition,
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
    void attach(final SubscriptionStateStore store, final SubscriptionSettings settings)
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
        this.publishedAckFloor = state.ackFloor();
    }

    /** Agent thread: the changeable settings of a live subscription take effect; see {@link SubscriptionRegistry#update}. */
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

    SubscriptionPartitionState state()
    {
        return state;
    }

    PartitionLog log()
    {
        return log;
    }

    long publishedAckFloor()
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
        return noteLogEnd() + state.expireDue() + state.meetArrivals();
    }

    /**
     * Tells the state how far the log reaches.
     *
     * @return 1 if the log grew, else 0.
     */
    int noteLogEnd()
    {
        final long end = log.endOffset();
        if (end > state.logEnd())
        {
            state.logEnd(end);
            return 1;
        }
        return 0;
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

    /** Messages ready across the partitions, as {@link SubscriptionPartitionState#readyCount()} counts them. */
    static long readyCount(final PartitionWorker[] partitions)
    {
        long ready = 0;
        for (final PartitionWorker partition : partitions)
        {
            ready += partition.state().readyCount();
        }
        return ready;
    }

    /** Journals what this pass changed and publishes the ack floor. */
    void commit()
    {
        store.commit();
        publishedAckFloor = state.ackFloor();
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
     * The state declared a message dead: publish a copy with its death history to the dead-letter topic. The view
     * is copied out before anything else uses the reader.
     */
    @Override
    public void onDead(final long offset, final DeadReason reason, final int deliveryCount)
    {
        if (deadLetterTopic == null)
        {
            return;
        }
        final RecordView record = finder.find(offset);
        if (record == null)
        {
            return;
        }
        final Map<String, byte[]> headers = DeathHistory.record(
            HeadersCodec.decode(record.buffer(), record.headersOffset(), record.headersLength()),
            topic, subscription, partition, offset, reason, deliveryCount, clock.time());
        deadLetters.send(deadLetterTopic, record.keyBytes(), HeadersCodec.encode(headers), record.valueBytes());
    }

    void close()
    {
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
