package io.spool.wire.kafka;

import io.spool.queue.Delivery;
import io.spool.queue.Subscription;
import org.apache.kafka.common.message.ShareFetchRequestData;
import org.apache.kafka.common.message.ShareFetchResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Answers ShareFetch: settles the acknowledgements it carries, then receives from the group's subscription for up
 * to the fetch's wait and hands the deliveries out as acquired records with their delivery counts. A waiting fetch
 * holds a thread of its own, so a long poll never holds up the listener's other requests. Thread-safe.
 */
final class ShareFetches
{
    private static final int MAX_RECEIVE = 10_000;
    private static final int MAX_WAITING_FETCHES = 256;
    private static final long RECEIVE_SLICE_MILLIS = 100;

    private final ShareSubscriptions subscriptions;
    private final ShareSessions sessions;
    private final ShareAcknowledgements acknowledgements;
    private final TopicIds topicIds;
    private final ExecutorService fetchers;

    ShareFetches(final ShareSubscriptions subscriptions, final ShareSessions sessions,
        final ShareAcknowledgements acknowledgements, final TopicIds topicIds)
    {
        this.subscriptions = subscriptions;
        this.sessions = sessions;
        this.acknowledgements = acknowledgements;
        this.topicIds = topicIds;
        final AtomicInteger count = new AtomicInteger();
        this.fetchers = new ThreadPoolExecutor(0, MAX_WAITING_FETCHES, 30, TimeUnit.SECONDS, new SynchronousQueue<>(),
            runnable ->
            {
                final Thread thread = new Thread(runnable, "spool-kafka-share-" + count.incrementAndGet());
                thread.setDaemon(true);
                return thread;
            });
    }

    /** Answers a ShareFetch of a known member, who reads {@code topic}. */
    void fetch(final KafkaRequest request, final String topic)
    {
        try
        {
            fetchers.execute(() ->
            {
                try
                {
                    fetchNow(request, topic);
                }
                catch (final RuntimeException ex)
                {
                    KafkaBroker.answerFailure(request, ex);
                }
            });
        }
        catch (final RejectedExecutionException ex)
        {
            request.respond(new ShareFetchResponseData().setErrorCode(Errors.REQUEST_TIMED_OUT.code())
                .setErrorMessage(MAX_WAITING_FETCHES + " share fetches are waiting already; try again"));
        }
    }

    private void fetchNow(final KafkaRequest request, final String topic)
    {
        final ShareFetchRequestData body = request.body();
        final ShareFetchResponseData response = new ShareFetchResponseData();
        final Subscription subscription = subscriptions.of(body.groupId());
        response.setAcquisitionLockTimeoutMs(subscription == null ? (int)ShareGroupSettings.KAFKA_LOCK_DURATION_MILLIS :
            (int)Math.min(Integer.MAX_VALUE, subscription.settings().lockTimeoutMillis()));
        final ShareSession session = sessions.forRequest(request, body.groupId(), body.memberId(),
            body.shareSessionEpoch(), (error, message) -> response.setErrorCode(error.code()).setErrorMessage(message));
        if (session == null)
        {
            return;
        }
        final Map<Integer, ShareFetchResponseData.PartitionData> partitions = new TreeMap<>();
        for (final ShareFetchRequestData.FetchTopic fetchTopic : body.topics())
        {
            for (final ShareFetchRequestData.FetchPartition partition : fetchTopic.partitions())
            {
                final ShareFetchResponseData.PartitionData out = new ShareFetchResponseData.PartitionData()
                    .setPartitionIndex(partition.partitionIndex()).setRecords(MemoryRecords.EMPTY);
                partitions.put(partition.partitionIndex(), out);
                if (!partition.acknowledgementBatches().isEmpty())
                {
                    final Errors acked = acknowledgements.settle(subscription, session, partition.partitionIndex(),
                        partition.acknowledgementBatches().stream().map(b -> new ShareAcknowledgements.AckRange(
                            b.firstOffset(), b.lastOffset(), b.acknowledgeTypes())).toList());
                    out.setAcknowledgeErrorCode(acked.code());
                }
            }
        }
        if (body.shareSessionEpoch() == ShareSessions.FINAL_EPOCH)
        {
            sessions.close(session);
            request.respond(responseFor(response, topic, partitions));
            return;
        }
        if (subscription != null && !body.isRenewAck())
        {
            if (!receive(subscription, session, body, partitions))
            {
                request.completeSilently();
                return;
            }
        }
        request.respond(responseFor(response, topic, partitions));
    }

    /**
     * Receives into the session for up to the fetch's wait, in slices, so that a session closed meanwhile (its
     * connection gone) stops waiting within one slice; false when that happened and the session was released.
     */
    private boolean receive(final Subscription subscription, final ShareSession session,
        final ShareFetchRequestData body, final Map<Integer, ShareFetchResponseData.PartitionData> partitions)
    {
        if (!session.beginFetch())
        {
            return false;
        }
        final int max = Math.max(1, Math.min(MAX_RECEIVE, body.maxRecords() <= 0 ? 500 : body.maxRecords()));
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(0, body.maxWaitMs()));
        List<Delivery> deliveries = List.of();
        try
        {
            do
            {
                final long remaining = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                deliveries = subscription.receive(max, Math.max(0, Math.min(RECEIVE_SLICE_MILLIS, remaining)));
            }
            while (deliveries.isEmpty() && !session.isClosed() && System.nanoTime() - deadline < 0);
            deliveries.forEach(delivery -> session.hold(delivery.receipt()));
        }
        finally
        {
            if (session.endFetch())
            {
                sessions.release(session);
                deliveries = null;
            }
        }
        if (deliveries == null)
        {
            return false;
        }
        addDeliveries(deliveries, partitions);
        return true;
    }

    private ShareFetchResponseData responseFor(final ShareFetchResponseData response, final String topic,
        final Map<Integer, ShareFetchResponseData.PartitionData> partitions)
    {
        if (!partitions.isEmpty())
        {
            response.responses().add(new ShareFetchResponseData.ShareFetchableTopicResponse()
                .setTopicId(topicIds.idOf(topic)).setPartitions(new ArrayList<>(partitions.values())));
        }
        return response;
    }

    /** Puts each partition's deliveries, in offset order, into one batch with their acquired ranges. */
    private static void addDeliveries(final List<Delivery> deliveries,
        final Map<Integer, ShareFetchResponseData.PartitionData> partitions)
    {
        final Map<Integer, List<Delivery>> byPartition = new TreeMap<>();
        for (final Delivery delivery : deliveries)
        {
            byPartition.computeIfAbsent(delivery.partition(), p -> new ArrayList<>()).add(delivery);
        }
        byPartition.forEach((partition, list) ->
        {
            list.sort(Comparator.comparingLong(Delivery::offset));
            int bytes = 0;
            for (final Delivery delivery : list)
            {
                bytes += Math.max(0, delivery.keyLength()) + Math.max(0, delivery.valueLength()) +
                    delivery.headersLength() + 64;
            }
            final MemoryRecordsBuilder batch = KafkaRecords.newBatch(ByteBuffer.allocate(bytes + 128),
                list.get(0).offset(), RecordBatch.NO_TIMESTAMP);
            final List<ShareFetchResponseData.AcquiredRecords> acquired = new ArrayList<>();
            for (final Delivery delivery : list)
            {
                batch.appendWithOffset(delivery.offset(), delivery.timestamp(), delivery.key(), delivery.value(),
                    KafkaRecords.headers(delivery.headers()));
                final ShareFetchResponseData.AcquiredRecords last = acquired.isEmpty() ? null :
                    acquired.get(acquired.size() - 1);
                if (last != null && last.lastOffset() + 1 == delivery.offset() &&
                    last.deliveryCount() == delivery.deliveryNumber())
                {
                    last.setLastOffset(delivery.offset());
                }
                else
                {
                    acquired.add(new ShareFetchResponseData.AcquiredRecords().setFirstOffset(delivery.offset())
                        .setLastOffset(delivery.offset()).setDeliveryCount((short)delivery.deliveryNumber()));
                }
            }
            final ShareFetchResponseData.PartitionData out = partitions.computeIfAbsent(partition,
                p -> new ShareFetchResponseData.PartitionData().setPartitionIndex(p));
            out.setRecords(batch.build()).setAcquiredRecords(acquired);
        });
    }

    void close()
    {
        fetchers.shutdownNow();
    }
}
