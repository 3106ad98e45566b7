package io.spool.queue;

import io.spool.api.log.HeadersCodec;
import io.spool.api.queue.OverflowPolicy;
import io.spool.api.queue.QueueFullException;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.ProducerRecord;
import io.spool.queue.internal.delivery.PendingConfirms;
import io.spool.stream.StreamEngine;
import io.spool.stream.StreamProducer;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Publish admission, in one place: a record for a topic one of whose subscriptions is full under
 * {@link OverflowPolicy#REJECT_PUBLISH} or {@link OverflowPolicy#REJECT_PUBLISH_DLX} is refused with a
 * {@link QueueFullException} before anything is stored, and under the second policy goes to that subscription's
 * dead-letter topic (reason {@code maxlen}) first. The embedded producer ({@code Spool.newProducer()}), the
 * {@link Router} (its {@code send} and its exchanges) and the wire server's PUBLISH frames, and through them the
 * Kafka and SQS listeners, all ask this gate.
 * <p>
 * Two publish paths do not, on purpose. {@code spool.streams().newProducer()} and the log store's producer sit in
 * layers below the subscriptions and cannot see them: they are the raw stream path, documented as publishing without
 * overflow limits. A replicated topic's records are appended by each node's Raft state machine, which must apply an
 * entry the same way on every node, while fullness is each node's own view of its subscriptions; refusing there
 * would let the nodes' logs differ.
 * <p>
 * Thread-safe: the full flags are read from the subscriptions' agents, and dead letters share one producer under a
 * lock, which only a refused publish under reject-publish-dlx takes.
 */
public final class PublishGate
{
    private final SubscriptionRegistry subscriptions;
    /**
     * Dead letters of refused publishes go out with {@link StreamProducer#publish}, as a subscription's own do:
     * {@code send} would take a dedup id they carry (or their content, on a topic that dedups by content) as a
     * dedup id of the dead-letter topic and store only the first of two refusals.
     */
    private final StreamProducer deadLetterProducer;
    private final PendingConfirms deadLettersInFlight = new PendingConfirms();
    private final EpochClock clock;
    private long deadLetterCorrelation;

    PublishGate(final SubscriptionRegistry subscriptions, final StreamEngine streams, final EpochClock clock)
    {
        this.subscriptions = subscriptions;
        this.deadLetterProducer = streams.newProducer(deadLettersInFlight);
        this.clock = clock;
    }

    /**
     * Whether {@link #admit} would refuse a record of {@code topic} now: reads the reject flags the subscriptions'
     * agents keep, and builds nothing. A publisher that holds records in another form than {@link ProducerRecord}
     * (the wire server, holding a frame's bytes) asks this first and builds records only when it is true.
     */
    public boolean refuses(final String topic)
    {
        return subscriptions.fullSubscriptionOf(topic) != null;
    }

    /**
     * Admits a record, or refuses it when a subscription of its topic is full under a reject policy.
     *
     * @throws QueueFullException naming the full subscription and its backlog; nothing was stored, and under
     *                            reject-publish-dlx the record went to that subscription's dead-letter topic.
     */
    public void admit(final ProducerRecord record)
    {
        final Subscription full = subscriptions.fullSubscriptionOf(record.topic());
        if (full == null)
        {
            return;
        }
        final SubscriptionSettings settings = full.settings();
        if (settings.overflowPolicy() == OverflowPolicy.REJECT_PUBLISH_DLX && settings.deadLetterTopic() != null)
        {
            final Map<String, byte[]> headers = DeathHistory.record(
                record.headers() == null ? Map.of() : record.headers(), record.topic(), full.name(), -1, -1,
                DeadReason.MAXLEN, 0, clock.time());
            deadLetter(settings.deadLetterTopic(), record.key(), headers, record.value()).join();
        }
        throw new QueueFullException(full.name(), "subscription " + full.name() + " of topic " + record.topic() +
            " is full: " + full.agent().overflow().describe() + "; publish refused (" + settings.overflowPolicy() +
            "), retry once consumers catch up");
    }

    /**
     * Admits a batch whole, or refuses it whole when a subscription refuses any of its records. Every record is
     * offered to {@link #admit}, so that under reject-publish-dlx each refused one is dead-lettered.
     *
     * @throws QueueFullException the first refusal met; nothing of the batch may be stored.
     */
    public void admitAll(final List<ProducerRecord> records)
    {
        QueueFullException refused = null;
        for (final ProducerRecord record : records)
        {
            try
            {
                admit(record);
            }
            catch (final QueueFullException full)
            {
                refused = refused == null ? full : refused;
            }
        }
        if (refused != null)
        {
            throw refused;
        }
    }

    /** Publishes a dead letter as it is, without dedup: it completes once the dead-letter topic has stored it. */
    private CompletableFuture<Void> deadLetter(final String topic, final byte[] key, final Map<String, byte[]> headers,
        final byte[] value)
    {
        final byte[] encoded = HeadersCodec.encode(headers);
        synchronized (deadLetterProducer)
        {
            final long correlation = deadLetterCorrelation++;
            final CompletableFuture<Void> stored = deadLettersInFlight.expect(correlation);
            try
            {
                deadLetterProducer.publish(topic, buffer(key), 0, key == null ? -1 : key.length,
                    new UnsafeBuffer(encoded), 0, encoded.length, buffer(value), 0, value == null ? -1 : value.length,
                    correlation);
            }
            catch (final RuntimeException failed)
            {
                deadLettersInFlight.forget(correlation);
                throw failed;
            }
            return stored;
        }
    }

    private static UnsafeBuffer buffer(final byte[] bytes)
    {
        return new UnsafeBuffer(bytes == null ? new byte[0] : bytes);
    }
}
