package io.spool.cluster;

import io.spool.cluster.ClusterEntryDescriptor.Reply;
import io.spool.cluster.QueueEntryDescriptor.QueueReply;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Applies one committed entry of a partition's group by its type, and answers it: an envelope's entries one after
 * the other as entries of their own; queue entries (CREATE_SUBSCRIPTION, RECEIVE, SETTLE, DEAD_LETTER_COPIED) to
 * the subscriptions ({@link ReplicatedSubscriptions}) there and then, judged at the time stamped in the entry, handing
 * the dead letters they owe to the leader's duties; records and consumer-group offsets (PUBLISH, KAFKA_PUBLISH,
 * COMMIT_OFFSET) to {@link CommittedRecords}, whose reply completes once they are stored.
 * <p>
 * Not thread-safe: called by the group's apply thread, one entry at a time.
 */
final class PartitionEntryApplier
{
    private final CommittedRecords records;
    private final ReplicatedSubscriptions subscriptions;
    private final PartitionLeaderDuties leaderDuties;
    private final String topic;
    private final int partition;

    PartitionEntryApplier(final String topic, final int partition, final CommittedRecords records,
        final ReplicatedSubscriptions subscriptions, final PartitionLeaderDuties leaderDuties)
    {
        this.topic = topic;
        this.partition = partition;
        this.records = records;
        this.subscriptions = subscriptions;
        this.leaderDuties = leaderDuties;
    }

    /** Applies the entry, or each entry of an envelope, and completes with the reply once it is applied. */
    CompletableFuture<Message> apply(final ByteString data)
    {
        return ClusterEntryDescriptor.type(data) == ClusterEntryDescriptor.TYPE_ENVELOPE ? applyEnvelope(data) :
            applyEntry(data);
    }

    private CompletableFuture<Message> applyEntry(final ByteString data)
    {
        final int type = ClusterEntryDescriptor.type(data);
        if (QueueEntryDescriptor.isQueueType(type))
        {
            // applied here and now: queue state needs the replicated end, not the local log's records
            final QueueReply reply = applyQueueEntry(type, data);
            leaderDuties.owedCopiesOf(subscriptions);
            return CompletableFuture.completedFuture(QueueEntryDescriptor.reply(reply));
        }
        final CompletableFuture<Reply> applied;
        if (type == ClusterEntryDescriptor.TYPE_COMMIT_OFFSET)
        {
            applied = records.commitOffset(ClusterEntryDescriptor.decodeCommitOffset(data));
        }
        else if (type == ClusterEntryDescriptor.TYPE_DELETE_GROUP_OFFSET)
        {
            applied = records.deleteGroupOffset(ClusterEntryDescriptor.decodeDeleteGroupOffset(data));
        }
        else if (type == ClusterEntryDescriptor.TYPE_PUBLISH)
        {
            applied = records.publish(ClusterEntryDescriptor.decodePublish(topic, partition, data));
        }
        else if (type == KafkaEntryDescriptor.TYPE_KAFKA_PUBLISH)
        {
            applied = records.kafkaPublish(KafkaEntryDescriptor.decodeKafkaPublish(topic, partition, data));
        }
        else
        {
            throw unknownType(type);
        }
        return applied.thenApply(ClusterEntryDescriptor::reply);
    }

    /** Applies an envelope's entries in order, each as an entry of its own, and answers with all their replies. */
    private CompletableFuture<Message> applyEnvelope(final ByteString envelope)
    {
        final List<CompletableFuture<Message>> replies = new ArrayList<>();
        for (final ByteString entry : ClusterEntryDescriptor.decodeEnvelope(envelope))
        {
            final Message refusal = refusalInEnvelope(entry);
            replies.add(refusal != null ? CompletableFuture.completedFuture(refusal) : applyEntry(entry));
        }
        return CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new)).thenApply(all ->
            ClusterEntryDescriptor.envelopeReply(replies.stream().map(CompletableFuture::join).toList()));
    }

    /** Why an envelope cannot hold {@code entry}, as the reply it gets instead; null when it can. */
    private static Message refusalInEnvelope(final ByteString entry)
    {
        final int type = ClusterEntryDescriptor.type(entry);
        if (QueueEntryDescriptor.isQueueType(type))
        {
            return QueueEntryDescriptor.reply(QueueReply.refused(QueueEntryDescriptor.REFUSAL_INVALID, "a queue " +
                "entry travels alone, never in an envelope, since the leader stamps it with its clock"));
        }
        return type == ClusterEntryDescriptor.TYPE_ENVELOPE ?
            ClusterEntryDescriptor.reply(Reply.refused("an envelope holds no envelope")) : null;
    }

    private QueueReply applyQueueEntry(final int type, final ByteString data)
    {
        return switch (type)
        {
            case QueueEntryDescriptor.TYPE_CREATE_SUBSCRIPTION ->
                subscriptions.create(QueueEntryDescriptor.decodeCreateSubscription(data));
            case QueueEntryDescriptor.TYPE_RECEIVE ->
                subscriptions.receive(QueueEntryDescriptor.decodeReceive(data), records.replicatedEnd());
            case QueueEntryDescriptor.TYPE_SETTLE -> subscriptions.settle(QueueEntryDescriptor.decodeSettle(data));
            case QueueEntryDescriptor.TYPE_DEAD_LETTER_COPIED ->
                subscriptions.copied(QueueEntryDescriptor.decodeDeadLetterCopied(data));
            default -> throw unknownType(type);
        };
    }

    private static IllegalStateException unknownType(final int type)
    {
        return new IllegalStateException("cluster entry type " + type + " is unknown to this node: it runs an " +
            "older Spool than the one that wrote the entry; upgrade it");
    }
}
