package io.spool.cluster;

import io.spool.api.InvalidRequestException;
import io.spool.api.queue.SubscriptionExistsException;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.TopicPartition;
import io.spool.api.stream.UnknownTopicException;
import io.spool.cluster.QueueEntryDescriptor.QueueReply;
import io.spool.queue.ReplicatedPartitionState;
import org.apache.ratis.protocol.Message;

import java.util.ArrayList;
import java.util.List;

/**
 * The queue requests of a {@link ClusterClient}: replicated subscriptions created, their messages received and
 * settled, and their dead-letter copies confirmed, each an entry in its partition's group whose leader stamps it
 * with its clock ({@link PartitionStateMachine}). Thread-safe.
 */
final class ClusterQueues
{
    private final PartitionClients partitions;

    ClusterQueues(final PartitionClients partitions)
    {
        this.partitions = partitions;
    }

    /** As {@link ClusterClient#createSubscription}. */
    void createSubscription(final String topic, final String subscription, final SubscriptionSettings settings)
    {
        ReplicatedSubscriptionSettings.check(settings);
        if (settings.deadLetterTopic() != null)
        {
            requireReplicatedDeadLetterTopic(settings.deadLetterTopic());
        }
        int existing = 0;
        final int partitionCount = partitions.partitionCount(topic);
        for (int partition = 0; partition < partitionCount; partition++)
        {
            final QueueReply reply = send(topic, partition, QueueEntryDescriptor.createSubscription(
                new QueueEntryDescriptor.CreateSubscription(subscription, 0, settings.lockTimeoutMillis(),
                    settings.deliveryLimit(), settings.deadLetterTopic())));
            if (reply.refusal() == QueueEntryDescriptor.REFUSAL_SUBSCRIPTION_EXISTS)
            {
                existing++;
            }
            else if (reply.refusal() != 0)
            {
                throw reply.toException();
            }
        }
        // a creation retried after a failure completes the partitions the first attempt missed
        if (existing == partitionCount)
        {
            throw new SubscriptionExistsException(subscription, topic);
        }
    }

    private void requireReplicatedDeadLetterTopic(final String deadLetterTopic)
    {
        try
        {
            partitions.partitionCount(deadLetterTopic);
        }
        catch (final UnknownTopicException unknown)
        {
            throw new InvalidRequestException("dead-letter topic " + deadLetterTopic + " is no replicated topic of " +
                "the cluster (a topic of one node's engine cannot take a replicated subscription's copies): create " +
                "it first with ClusterClient.createTopic, or name a replicated topic");
        }
    }

    /** As {@link ClusterClient#confirmDeadLetterCopied}. */
    void confirmDeadLetterCopied(final String topic, final int partition, final String subscription,
        final long ordinal)
    {
        admitted(send(topic, partition, QueueEntryDescriptor.deadLetterCopied(
            new QueueEntryDescriptor.DeadLetterCopied(subscription, 0, ordinal))));
    }

    /** As {@link ClusterClient#receive}. */
    List<ClusterDelivery> receive(final String topic, final int partition, final String subscription, final int max,
        final long lockMillis)
    {
        final QueueReply reply = admitted(send(topic, partition, QueueEntryDescriptor.receive(
            new QueueEntryDescriptor.Receive(subscription, 0, max, lockMillis))));
        final List<ClusterDelivery> deliveries = new ArrayList<>(reply.deliveries().size());
        for (final ReplicatedPartitionState.Delivered delivered : reply.deliveries())
        {
            deliveries.add(new ClusterDelivery(new ClusterReceipt(topic, partition, subscription,
                delivered.offset(), delivered.deliveryNumber())));
        }
        return deliveries;
    }

    /**
     * Acks, nacks, rejects or extends a delivery ({@link QueueEntryDescriptor#ACTION_ACK} and the others).
     *
     * @return the new deadline of an extended lock, by the leader's clock.
     */
    long settle(final ClusterReceipt receipt, final int action, final long argument)
    {
        return admitted(send(receipt.topic(), receipt.partition(), QueueEntryDescriptor.settle(
            new QueueEntryDescriptor.Settle(receipt.subscription(), 0, action, receipt.offset(),
                receipt.deliveryNumber(), argument)))).value();
    }

    /** The reply, or the exception its refusal stands for. */
    private static QueueReply admitted(final QueueReply reply)
    {
        if (reply.refusal() != 0)
        {
            throw reply.toException();
        }
        return reply;
    }

    private QueueReply send(final String topic, final int partition, final Message entry)
    {
        return QueueEntryDescriptor.decodeReply(partitions.send(new TopicPartition(topic, partition), entry)
            .getContent());
    }
}
