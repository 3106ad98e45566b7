package io.spool.wire.kafka;

import io.spool.Spool;
import io.spool.api.queue.Receipt;
import io.spool.api.queue.SubscriptionExistsException;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.queue.UnknownSubscriptionException;
import io.spool.api.queue.BatchResult;
import io.spool.queue.Delivery;
import io.spool.queue.Subscription;
import io.spool.stream.Topic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.message.ShareAcknowledgeRequestData;
import org.apache.kafka.common.message.ShareAcknowledgeResponseData;
import org.apache.kafka.common.message.ShareFetchRequestData;
import org.apache.kafka.common.message.ShareFetchResponseData;
import org.apache.kafka.common.message.ShareGroupHeartbeatRequestData;
import org.apache.kafka.common.message.ShareGroupHeartbeatResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Share groups (KIP-932) on Spool subscriptions: the share group named G reading topic T is the Spool subscription
 * named G on T, created with Kafka's defaults (or the group's configured settings) when its first member joins, or
 * made beforehand through Spool's API with any of Spool's settings (delays, retry ladders, message groups, TTL,
 * dedup). Every member is assigned every partition of the topic; a ShareFetch receives from the subscription and
 * hands out the deliveries as acquired records with their delivery counts; acknowledgements (accept, release,
 * reject, renew) settle those deliveries. A member that leaves, whose session times out or whose connection closes
 * has its acquired records released at once, to be delivered again. Thread-safe.
 */
final class ShareGroups
{
    private static final int JOIN_EPOCH = 0;
    private static final int LEAVE_EPOCH = -1;
    private static final int FINAL_SESSION_EPOCH = -1;
    private static final int MAX_RECEIVE = 10_000;
    private static final int MAX_WAITING_FETCHES = 256;
    private static final long RECEIVE_SLICE_MILLIS = 100;
    private static final byte GAP = 0;
    private static final byte ACCEPT = 1;
    private static final byte RELEASE = 2;
    private static final byte REJECT = 3;
    private static final byte RENEW = 4;

    private final Spool engine;
    private final KafkaListenerConfig config;
    private final TopicIds topicIds;
    private final Map<String, ShareGroup> groups = new ConcurrentHashMap<>();
    private final Map<String, ShareSession> sessions = new ConcurrentHashMap<>();
    private final Map<String, Map<String, String>> pendingSettings = new ConcurrentHashMap<>();
    private final ExecutorService fetchers;

    ShareGroups(final Spool engine, final KafkaListenerConfig config, final TopicIds topicIds)
    {
        this.engine = engine;
        this.config = config;
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

    /** One share group's members, by the ids their clients chose. Guarded by itself. */
    static final class ShareGroup
    {
        final String id;
        final Map<String, ShareMember> members = new HashMap<>();
        int epoch;

        ShareGroup(final String id)
        {
            this.id = id;
        }
    }

    static final class ShareMember
    {
        final String id;
        final String clientId;
        final String host;
        final String topic;
        int epoch = 1;
        int assignedPartitions = -1;
        long lastHeartbeatMillis;

        ShareMember(final String id, final String clientId, final String host, final String topic)
        {
            this.id = id;
            this.clientId = clientId;
            this.host = host;
            this.topic = topic;
        }
    }

    void heartbeat(final KafkaRequest request)
    {
        final ShareGroupHeartbeatRequestData body = request.body();
        final ShareGroupHeartbeatResponseData response = new ShareGroupHeartbeatResponseData()
            .setMemberId(body.memberId()).setHeartbeatIntervalMs(config.groupHeartbeatIntervalMillis());
        if (body.groupId() == null || body.groupId().isEmpty())
        {
            request.respond(response.setErrorCode(Errors.INVALID_GROUP_ID.code()));
            return;
        }
        final ShareGroup group = groups.computeIfAbsent(body.groupId(), ShareGroup::new);
        synchronized (group)
        {
            ShareMember member = group.members.get(body.memberId());
            if (body.memberEpoch() == LEAVE_EPOCH)
            {
                if (member != null)
                {
                    group.members.remove(member.id);
                    releaseSessionsOf(group.id, member.id);
                }
                request.respond(response.setMemberEpoch(LEAVE_EPOCH));
                return;
            }
            if (member == null && body.memberEpoch() != JOIN_EPOCH)
            {
                request.respond(response.setErrorCode(Errors.UNKNOWN_MEMBER_ID.code()));
                return;
            }
            if (member == null)
            {
                final List<String> topics = body.subscribedTopicNames();
                if (topics == null || topics.size() != 1)
                {
                    request.respond(response.setErrorCode(Errors.INVALID_REQUEST.code()).setErrorMessage(
                        "a share group is one Spool subscription, which reads one topic; subscribe to exactly one"));
                    return;
                }
                final String problem = subscriptionProblem(group.id, topics.get(0));
                if (problem != null)
                {
                    request.respond(response.setErrorCode(Errors.INVALID_REQUEST.code()).setErrorMessage(problem));
                    return;
                }
                member = new ShareMember(body.memberId(), request.clientId(), request.connection().remoteHost(),
                    topics.get(0));
                group.members.put(member.id, member);
                group.epoch++;
            }
            member.lastHeartbeatMillis = engine.streams().clock().time();
            final Topic topic = engine.streams().topics().topicOrNull(member.topic);
            final int partitions = topic == null ? 0 : topic.partitionCount();
            if (topic != null && subscription(group.id) == null)
            {
                ensureSubscription(group.id, member.topic);
            }
            if (partitions != member.assignedPartitions || body.memberEpoch() == JOIN_EPOCH)
            {
                if (partitions != member.assignedPartitions && member.assignedPartitions >= 0)
                {
                    member.epoch++;
                }
                member.assignedPartitions = partitions;
                final ShareGroupHeartbeatResponseData.Assignment assignment =
                    new ShareGroupHeartbeatResponseData.Assignment();
                if (partitions > 0)
                {
                    final List<Integer> all = new ArrayList<>();
                    for (int p = 0; p < partitions; p++)
                    {
                        all.add(p);
                    }
                    assignment.topicPartitions().add(new ShareGroupHeartbeatResponseData.TopicPartitions()
                        .setTopicId(topicIds.idOf(member.topic)).setPartitions(all));
                }
                response.setAssignment(assignment);
            }
            request.respond(response.setMemberEpoch(member.epoch));
        }
    }

    /** Why the group cannot read {@code topic}: its subscription reads another one. Null when it can. */
    private String subscriptionProblem(final String group, final String topic)
    {
        final Subscription existing = subscription(group);
        if (existing != null && !existing.topic().equals(topic))
        {
            return "share group \"" + group + "\" is the Spool subscription of that name, which reads topic \"" +
                existing.topic() + "\", not \"" + topic + "\"";
        }
        return null;
    }

    private Subscription subscription(final String group)
    {
        try
        {
            return engine.subscription(group);
        }
        catch (final UnknownSubscriptionException ex)
        {
            return null;
        }
    }

    private Subscription ensureSubscription(final String group, final String topic)
    {
        final Subscription existing = subscription(group);
        if (existing != null)
        {
            return existing;
        }
        try
        {
            final SubscriptionSettings settings = ShareGroupSettings.apply(ShareGroupSettings.kafkaDefaults(),
                pendingSettings.getOrDefault(group, Map.of()));
            final Subscription created = engine.createSubscription(group, topic, settings);
            pendingSettings.remove(group);
            return created;
        }
        catch (final SubscriptionExistsException ex)
        {
            return engine.subscription(group);
        }
    }

    void fetch(final KafkaRequest request)
    {
        try
        {
            fetchers.execute(() ->
            {
                try
                {
                    fetchNow(request);
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

    private void fetchNow(final KafkaRequest request)
    {
        final ShareFetchRequestData body = request.body();
        final ShareFetchResponseData response = new ShareFetchResponseData();
        final ShareMember member = member(body.groupId(), body.memberId());
        if (member == null)
        {
            request.respond(response.setErrorCode(Errors.UNKNOWN_MEMBER_ID.code()));
            return;
        }
        final Subscription subscription = subscription(body.groupId());
        response.setAcquisitionLockTimeoutMs(subscription == null ? (int)ShareGroupSettings.KAFKA_LOCK_DURATION_MILLIS :
            (int)Math.min(Integer.MAX_VALUE, subscription.settings().lockTimeoutMillis()));
        final ShareSession session;
        try
        {
            session = session(body.groupId(), body.memberId(), body.shareSessionEpoch(), request.connection());
        }
        catch (final org.apache.kafka.common.errors.ApiException ex)
        {
            request.respond(response.setErrorCode(Errors.forException(ex).code()).setErrorMessage(ex.getMessage()));
            return;
        }
        final Map<Integer, ShareFetchResponseData.PartitionData> partitions = new TreeMap<>();
        for (final ShareFetchRequestData.FetchTopic topic : body.topics())
        {
            for (final ShareFetchRequestData.FetchPartition partition : topic.partitions())
            {
                final ShareFetchResponseData.PartitionData out = new ShareFetchResponseData.PartitionData()
                    .setPartitionIndex(partition.partitionIndex()).setRecords(MemoryRecords.EMPTY);
                partitions.put(partition.partitionIndex(), out);
                if (!partition.acknowledgementBatches().isEmpty())
                {
                    final Errors acked = acknowledge(subscription, session, partition.partitionIndex(),
                        partition.acknowledgementBatches().stream().map(b -> new AckRange(b.firstOffset(),
                            b.lastOffset(), b.acknowledgeTypes())).toList());
                    out.setAcknowledgeErrorCode(acked.code());
                }
            }
        }
        if (body.shareSessionEpoch() == FINAL_SESSION_EPOCH)
        {
            closeSession(session);
            request.respond(responseFor(response, member.topic, partitions));
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
        request.respond(responseFor(response, member.topic, partitions));
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
                release(session);
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

    void acknowledge(final KafkaRequest request)
    {
        final ShareAcknowledgeRequestData body = request.body();
        final ShareAcknowledgeResponseData response = new ShareAcknowledgeResponseData();
        final ShareMember member = member(body.groupId(), body.memberId());
        if (member == null)
        {
            request.respond(response.setErrorCode(Errors.UNKNOWN_MEMBER_ID.code()));
            return;
        }
        final ShareSession session;
        try
        {
            session = session(body.groupId(), body.memberId(), body.shareSessionEpoch(), request.connection());
        }
        catch (final org.apache.kafka.common.errors.ApiException ex)
        {
            request.respond(response.setErrorCode(Errors.forException(ex).code()).setErrorMessage(ex.getMessage()));
            return;
        }
        final Subscription subscription = subscription(body.groupId());
        for (final ShareAcknowledgeRequestData.AcknowledgeTopic topic : body.topics())
        {
            final ShareAcknowledgeResponseData.ShareAcknowledgeTopicResponse topicResponse =
                new ShareAcknowledgeResponseData.ShareAcknowledgeTopicResponse().setTopicId(topic.topicId());
            response.responses().add(topicResponse);
            for (final ShareAcknowledgeRequestData.AcknowledgePartition partition : topic.partitions())
            {
                final Errors error = acknowledge(subscription, session, partition.partitionIndex(),
                    partition.acknowledgementBatches().stream().map(b -> new AckRange(b.firstOffset(), b.lastOffset(),
                        b.acknowledgeTypes())).toList());
                topicResponse.partitions().add(new ShareAcknowledgeResponseData.PartitionData()
                    .setPartitionIndex(partition.partitionIndex()).setErrorCode(error.code()));
            }
        }
        if (body.shareSessionEpoch() == FINAL_SESSION_EPOCH)
        {
            closeSession(session);
        }
        request.respond(response);
    }

    private record AckRange(long first, long last, List<Byte> types)
    {
        byte typeAt(final long offset)
        {
            return types.size() == 1 ? types.get(0) : types.get((int)(offset - first));
        }
    }

    /** Settles the acknowledged records of one partition; INVALID_RECORD_STATE when one was not acquired here. */
    private Errors acknowledge(final Subscription subscription, final ShareSession session, final int partition,
        final List<AckRange> ranges)
    {
        final Map<Byte, List<Receipt>> byType = new HashMap<>();
        boolean unknown = subscription == null;
        for (final AckRange range : ranges)
        {
            if (range.last < range.first || (range.types.size() != 1 &&
                range.types.size() != range.last - range.first + 1))
            {
                return Errors.INVALID_REQUEST;
            }
            for (long offset = range.first; offset <= range.last; offset++)
            {
                final byte type = range.typeAt(offset);
                if (type == GAP)
                {
                    continue;
                }
                final Receipt receipt = type == RENEW ? session.peek(partition, offset) : session.take(partition, offset);
                if (receipt == null)
                {
                    unknown = true;
                    continue;
                }
                byType.computeIfAbsent(type, t -> new ArrayList<>()).add(receipt);
            }
        }
        if (subscription == null)
        {
            return Errors.INVALID_RECORD_STATE;
        }
        boolean failed = false;
        for (final Map.Entry<Byte, List<Receipt>> settled : byType.entrySet())
        {
            final BatchResult result = switch (settled.getKey())
            {
                case ACCEPT -> subscription.ack(settled.getValue());
                case RELEASE -> subscription.nack(settled.getValue());
                case REJECT -> subscription.reject(settled.getValue());
                case RENEW -> subscription.extend(settled.getValue(), subscription.settings().lockTimeoutMillis());
                default -> null;
            };
            failed |= result == null || !result.allSucceeded();
        }
        return unknown || failed ? Errors.INVALID_RECORD_STATE : Errors.NONE;
    }

    private ShareMember member(final String groupId, final String memberId)
    {
        final ShareGroup group = groups.get(groupId);
        if (group == null)
        {
            return null;
        }
        synchronized (group)
        {
            return group.members.get(memberId);
        }
    }

    /** The member's session for a request of {@code epoch}: 0 opens one, -1 uses and then closes it. */
    private ShareSession session(final String group, final String memberId, final int epoch,
        final KafkaConnection connection)
    {
        final String key = sessionKey(group, memberId);
        if (epoch == JOIN_EPOCH)
        {
            final ShareSession opened = new ShareSession(group, memberId, connection);
            final ShareSession previous = sessions.put(key, opened);
            if (previous != null && previous.close())
            {
                release(previous);
            }
            return opened;
        }
        final ShareSession session = sessions.get(key);
        if (session == null)
        {
            throw Errors.SHARE_SESSION_NOT_FOUND.exception("no share session for member " + memberId + " of group \"" +
                group + "\"; open one with epoch 0");
        }
        synchronized (session)
        {
            if (epoch != FINAL_SESSION_EPOCH)
            {
                if (epoch != session.nextEpoch)
                {
                    throw Errors.INVALID_SHARE_SESSION_EPOCH.exception("share session epoch " + epoch + " where " +
                        session.nextEpoch + " was expected");
                }
                session.advance();
            }
        }
        return session;
    }

    private static String sessionKey(final String group, final String memberId)
    {
        return group + '\u0000' + memberId;
    }

    private static String sessionKey(final ShareSession session)
    {
        return sessionKey(session.group, session.memberId);
    }

    private void closeSession(final ShareSession session)
    {
        sessions.remove(sessionKey(session), session);
        if (session.close())
        {
            release(session);
        }
    }

    /** Returns a session's acquired records to the subscription, to be delivered again. */
    private void release(final ShareSession session)
    {
        final List<Receipt> held = session.drain();
        final Subscription subscription = subscription(session.group);
        if (!held.isEmpty() && subscription != null)
        {
            subscription.nack(held);
        }
    }

    private void releaseSessionsOf(final String group, final String memberId)
    {
        final ShareSession session = sessions.get(sessionKey(group, memberId));
        if (session != null)
        {
            closeSession(session);
        }
    }

    void connectionClosed(final KafkaConnection connection)
    {
        for (final ShareSession session : sessions.values())
        {
            if (session.connection == connection)
            {
                closeSession(session);
            }
        }
    }

    /** Removes members whose session timed out, releasing what they had acquired. */
    void sweep()
    {
        final long now = engine.streams().clock().time();
        for (final ShareGroup group : groups.values())
        {
            synchronized (group)
            {
                final List<String> expired = new ArrayList<>();
                group.members.values().forEach(member ->
                {
                    if (now - member.lastHeartbeatMillis > config.groupSessionTimeoutMillis())
                    {
                        expired.add(member.id);
                    }
                });
                for (final String memberId : expired)
                {
                    group.members.remove(memberId);
                    releaseSessionsOf(group.id, memberId);
                    group.epoch++;
                }
            }
        }
    }

    /** Share-group settings for a group: its subscription's, or those set for it before it has one. */
    Map<String, String> describeSettings(final String group)
    {
        final Subscription subscription = subscription(group);
        final SubscriptionSettings settings = subscription != null ? subscription.settings() :
            ShareGroupSettings.apply(ShareGroupSettings.kafkaDefaults(), pendingSettings.getOrDefault(group, Map.of()));
        return ShareGroupSettings.describe(settings);
    }

    /**
     * Sets share-group settings. Before the group's subscription exists they are kept (in memory) for its
     * creation; once it exists they are Spool's subscription settings, fixed at creation, so only a change to the
     * values it already has is accepted.
     */
    void alterSettings(final String group, final Map<String, String> changes)
    {
        final Subscription subscription = subscription(group);
        if (subscription == null)
        {
            final Map<String, String> merged = new HashMap<>(pendingSettings.getOrDefault(group, Map.of()));
            merged.putAll(changes);
            ShareGroupSettings.apply(ShareGroupSettings.kafkaDefaults(), merged);
            pendingSettings.put(group, merged);
            return;
        }
        if (!ShareGroupSettings.apply(subscription.settings(), changes).equals(subscription.settings()))
        {
            throw new InvalidConfigurationException("share group \"" + group + "\" is a Spool subscription whose " +
                "settings were fixed when it was created; delete the subscription to start it with new settings");
        }
    }

    /** Copies of the groups' members, for describing them. */
    List<ShareGroupView> views()
    {
        final List<ShareGroupView> all = new ArrayList<>();
        for (final String id : groups.keySet())
        {
            final ShareGroupView view = view(id);
            if (view != null)
            {
                all.add(view);
            }
        }
        return all;
    }

    ShareGroupView view(final String id)
    {
        final ShareGroup group = groups.get(id);
        if (group == null)
        {
            return null;
        }
        synchronized (group)
        {
            return new ShareGroupView(group.id, group.epoch, group.members.values().stream().map(member ->
                new ShareGroupView.MemberView(member.id, member.clientId, member.host, member.topic,
                    topicIds.idOf(member.topic), member.epoch, Math.max(0, member.assignedPartitions))).toList());
        }
    }

    void close()
    {
        fetchers.shutdownNow();
    }

    record ShareGroupView(String groupId, int epoch, List<MemberView> members)
    {
        record MemberView(String memberId, String clientId, String host, String topic, Uuid topicId, int epoch,
            int partitions)
        {
        }
    }
}
