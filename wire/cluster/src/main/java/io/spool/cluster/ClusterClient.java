package io.spool.cluster;

import io.spool.api.InvalidRequestException;
import io.spool.api.queue.AlreadySettledException;
import io.spool.api.queue.StaleReceiptException;
import io.spool.api.queue.SubscriptionExistsException;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.queue.UnknownDeliveryException;
import io.spool.api.queue.UnknownSubscriptionException;
import io.spool.api.stream.InvalidTopicException;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicExistsException;
import io.spool.api.stream.TopicPartition;
import io.spool.api.stream.UnknownPartitionException;
import io.spool.api.stream.UnknownTopicException;
import io.spool.cluster.ClusterEntryDescriptor.AlterTopicRetention;
import io.spool.cluster.ClusterEntryDescriptor.CreateTopic;
import io.spool.cluster.ClusterEntryDescriptor.Reply;

import org.apache.ratis.client.RaftClient;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.retry.RetryPolicy;
import org.apache.ratis.util.TimeDuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A client of a cluster: creates and deletes replicated topics and publishes to them through each partition's Raft
 * group. It needs no leader's address: Ratis' client asks any member, follows the leader it is pointed to, and after a
 * failover retries on the new one; a retry is stored once, as Ratis' retry cache and each partition's producer
 * windows see to ({@link ClusterProducer}). Records are read from any node's native server ({@code SpoolClient}).
 * Thread-safe.
 */
public final class ClusterClient implements AutoCloseable
{
    private static final Logger LOGGER = LoggerFactory.getLogger(ClusterClient.class);
    /** While a leader is being elected, requests are retried this often, without end: a caller bounds its wait. */
    private static final RetryPolicy RETRY = RetryPolicies.retryForeverWithSleep(
        TimeDuration.valueOf(100, TimeUnit.MILLISECONDS));
    private static final Duration GROUP_START_WAIT = Duration.ofSeconds(30);

    private final ClusterGroups groups;
    private final RaftClient metadata;
    /** The partitions whose group {@link #leaderOfAskingAgain} has a question out to. */
    private final Set<TopicPartition> askingForLeader = ConcurrentHashMap.newKeySet();
    /** Answers publishes off Ratis' threads ({@link EntryCoalescer}); once closed, on the thread that answers. */
    private final ThreadPoolExecutor answers = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
        new LinkedBlockingQueue<>(), ClusterClient::answerThread, (answer, closed) -> answer.run());
    private final PartitionClients partitions;
    private final ClusterQueues queues;

    private ClusterClient(final ClusterMembers members)
    {
        this.groups = new ClusterGroups(members);
        this.metadata = newClient(groups.metadata());
        this.partitions = new PartitionClients(groups, metadata, ClusterClient::newClient, answers);
        this.queues = new ClusterQueues(partitions);
    }

    private static Thread answerThread(final Runnable answering)
    {
        final Thread thread = new Thread(answering, "spool-cluster-answers");
        thread.setDaemon(true);
        return thread;
    }

    public static ClusterClient connect(final ClusterMembers members)
    {
        return new ClusterClient(members);
    }

    private static RaftClient newClient(final RaftGroup group)
    {
        return RaftClient.newBuilder()
            .setProperties(RaftSettings.client())
            .setRaftGroup(group)
            .setClientId(ClientId.randomId())
            .setRetryPolicy(RETRY)
            .build();
    }

    /**
     * Creates a topic whose every partition is kept by {@code replicationFactor} nodes, and returns once every
     * partition's group has a leader.
     *
     * @throws TopicExistsException   when the cluster has a topic of that name.
     * @throws InvalidTopicException  when the engine refuses the name or settings.
     * @throws IllegalArgumentException when the factor cannot be placed on this cluster.
     */
    public void createTopic(final String name, final int replicationFactor, final TopicConfig config)
    {
        groups.checkReplicationFactor(replicationFactor);
        if (config.dedupByContent())
        {
            throw new InvalidTopicException("a replicated topic cannot deduplicate by content yet: the cluster " +
                "counts every committed record as stored; publish with a producer's retries instead");
        }
        final Reply reply = ClusterEntryDescriptor.decodeReply(
            send(metadata, ClusterEntryDescriptor.createTopic(name, replicationFactor, config)).getContent());
        if (reply.status() == ClusterEntryDescriptor.STATUS_REFUSED)
        {
            throw reply.problem().endsWith(" exists") ? new TopicExistsException(reply.problem()) :
                new InvalidTopicException(reply.problem());
        }
        partitions.created(new CreateTopic(name, replicationFactor, config, reply.baseOffset()));
        for (int partition = 0; partition < config.partitions(); partition++)
        {
            awaitLeader(new TopicPartition(name, partition));
        }
    }

    /**
     * Deletes a replicated topic on every node: each leaves the groups of its partitions (their Raft logs,
     * snapshots and subscriptions' state removed) and deletes the topic's records and committed offsets. A node that
     * is down deletes it when it starts again. The name can then be created again, as a new topic that starts at
     * offset 0 and inherits nothing. A subscription whose dead-letter topic it was keeps the copies it owes until a
     * topic of that name exists again.
     *
     * @throws UnknownTopicException when the cluster has no topic of that name.
     */
    public void deleteTopic(final String name)
    {
        final Reply reply = ClusterEntryDescriptor.decodeReply(
            send(metadata, ClusterEntryDescriptor.deleteTopic(name)).getContent());
        partitions.forget(name);
        if (reply.status() == ClusterEntryDescriptor.STATUS_REFUSED)
        {
            throw new UnknownTopicException(reply.problem());
        }
    }

    /**
     * Changes a replicated topic's retention limits on every node, through the metadata group; a node that is down
     * applies them when it starts again. The next retention pass of each node deletes the segments they exclude.
     *
     * @throws UnknownTopicException    when the cluster has no topic of that name.
     * @throws IllegalArgumentException when a limit is out of range.
     */
    public void alterTopicRetention(final String name, final long retentionMillis, final long retentionBytes)
    {
        TopicConfig.of(1).withRetention(retentionMillis, retentionBytes); // refused here as every node would
        final Reply reply = ClusterEntryDescriptor.decodeReply(send(metadata, ClusterEntryDescriptor
            .alterTopicRetention(new AlterTopicRetention(name, retentionMillis, retentionBytes))).getContent());
        if (reply.status() == ClusterEntryDescriptor.STATUS_REFUSED)
        {
            throw new UnknownTopicException(reply.problem());
        }
    }

    /** The replicated end of a partition (the offset its next record takes), as its leader has applied it. */
    public long endOffset(final String topic, final int partition)
    {
        return query(new TopicPartition(topic, partition), Message.EMPTY);
    }

    private long query(final TopicPartition partition, final Message question)
    {
        try
        {
            return ClusterEntryDescriptor.decodeReply(partitions.call(partition,
                group -> group.io().sendReadOnly(question)).getMessage().getContent()).baseOffset();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("no leader of " + partition + " answered", ex);
        }
    }

    /**
     * Commits a consumer group's offset in a partition on every node of its group, in order with its records: a
     * failover keeps it. The group is one that commits through the cluster only (not a live group of members on a
     * node's native server). No Kafka group coordinator sends it, so no coordinator's epoch fences it: it is taken
     * whatever coordinator committed for the group before.
     *
     * @throws InvalidRequestException when the offset is negative or above the partition's replicated end.
     */
    public void commitOffset(final String group, final String topic, final int partition, final long offset)
    {
        commitOffset(group, topic, partition, offset, CoordinatorEpochs.UNFENCED);
    }

    /**
     * Commits as a Kafka group coordinator of {@code coordinatorEpoch} does ({@link CoordinatorEpochs}).
     *
     * @return false, committing nothing, when the partition has applied a commit of the group from a later epoch.
     * @throws InvalidRequestException when the offset is negative or above the partition's replicated end.
     */
    boolean commitOffset(final String group, final String topic, final int partition, final long offset,
        final long coordinatorEpoch)
    {
        return admitted(partitions.send(new TopicPartition(topic, partition),
            ClusterEntryDescriptor.commitOffset(group, offset, coordinatorEpoch)));
    }

    /**
     * Deletes the group's committed offset in a partition, and its coordinator epoch there, on every node of the
     * partition's group, as a Kafka group coordinator of {@code coordinatorEpoch} deletes a group.
     *
     * @return false, deleting nothing, when the partition has applied a commit of the group from a later epoch.
     */
    boolean deleteGroupOffset(final String group, final TopicPartition partition, final long coordinatorEpoch)
    {
        return admitted(partitions.send(partition, ClusterEntryDescriptor.deleteGroupOffset(group, coordinatorEpoch)));
    }

    /** Whether a commit or deletion was applied; false when its coordinator was stale. */
    private static boolean admitted(final Message answer)
    {
        final Reply reply = ClusterEntryDescriptor.decodeReply(answer.getContent());
        if (reply.status() == ClusterEntryDescriptor.STATUS_REFUSED)
        {
            throw new InvalidRequestException(reply.problem());
        }
        return reply.status() != ClusterEntryDescriptor.STATUS_STALE_COORDINATOR;
    }

    /** The group's committed offset in a partition, as the partition's leader holds it; -1 for none. */
    public long committedOffset(final String group, final String topic, final int partition)
    {
        return query(new TopicPartition(topic, partition), Message.valueOf(group));
    }

    /**
     * Creates a subscription of a replicated topic in every partition's group: every node of a partition holds its
     * per-message state, and a failover keeps it. It starts at each partition's first offset. The lock timeout,
     * the delivery limit and the dead-letter topic of {@code settings} apply; with a dead-letter topic (a replicated
     * topic of this cluster) each message that goes dead is copied there once, by the partition's leader.
     *
     * @throws SubscriptionExistsException when every partition has a subscription of that name.
     * @throws InvalidRequestException     when a setting other than those is not at its default (naming it), or the
     *                                     dead-letter topic is no replicated topic of the cluster.
     */
    public void createSubscription(final String topic, final String subscription, final SubscriptionSettings settings)
    {
        queues.createSubscription(topic, subscription, settings);
    }

    /**
     * Confirms in the partition's group that the dead-letter topic stored the subscription's copy {@code ordinal}
     * ({@link DeadLetterCopier}).
     */
    void confirmDeadLetterCopied(final String topic, final int partition, final String subscription,
        final long ordinal)
    {
        queues.confirmDeadLetterCopied(topic, partition, subscription, ordinal);
    }

    /**
     * Takes up to {@code max} messages of one partition for the subscription, each locked for {@code lockMillis}:
     * until then no other receive gets it, and after it comes back with its delivery count one higher (or goes dead
     * at the delivery limit). The partition's leader decides, by its clock, and every node applies the decision.
     *
     * @throws UnknownSubscriptionException when the partition has no such subscription.
     * @throws InvalidRequestException      when {@code max} is below 1 or the lock is out of range.
     */
    public List<ClusterDelivery> receive(final String topic, final int partition, final String subscription,
        final int max, final long lockMillis)
    {
        return queues.receive(topic, partition, subscription, max, lockMillis);
    }

    /**
     * Acknowledges a delivery on every node of its partition: the message never comes back.
     *
     * @throws StaleReceiptException    when the lock ran out (or another delivery holds the message).
     * @throws AlreadySettledException  when the message is already acked or dead.
     * @throws UnknownDeliveryException when the subscription never made that delivery.
     */
    public void ack(final ClusterReceipt receipt)
    {
        queues.settle(receipt, QueueEntryDescriptor.ACTION_ACK, 0);
    }

    /** Releases a delivery, available again after {@code delayMillis} (0 for at once); dead at the delivery limit. */
    public void nack(final ClusterReceipt receipt, final long delayMillis)
    {
        queues.settle(receipt, QueueEntryDescriptor.ACTION_NACK, delayMillis);
    }

    /** Rejects a delivery: the message goes dead. */
    public void reject(final ClusterReceipt receipt)
    {
        queues.settle(receipt, QueueEntryDescriptor.ACTION_REJECT, 0);
    }

    /** Locks a delivery for {@code lockMillis} from now on; returns the new deadline (the leader's clock). */
    public long extend(final ClusterReceipt receipt, final long lockMillis)
    {
        return queues.settle(receipt, QueueEntryDescriptor.ACTION_EXTEND, lockMillis);
    }

    /** The id of the node this client last found leading the partition, or -1 before it has asked. */
    public int leaderOf(final String topic, final int partition)
    {
        return nodeIdOrNone(partitions.client(new TopicPartition(topic, partition)).getLeaderId());
    }

    /** The id of the node this client last found leading the metadata group, or -1 before it has asked. */
    int metadataLeader()
    {
        return nodeIdOrNone(metadata.getLeaderId());
    }

    private static int nodeIdOrNone(final RaftPeerId leader)
    {
        return leader == null ? -1 : ClusterGroups.nodeId(leader);
    }

    /**
     * As {@link #leaderOf}, and asks the partition's group again in the background (one question at a time), so that
     * a later call knows of an election since: for a node outside the group, whose client hears of none otherwise.
     */
    int leaderOfAskingAgain(final String topic, final int partition)
    {
        final TopicPartition where = new TopicPartition(topic, partition);
        if (askingForLeader.add(where))
        {
            partitions.client(where).async().sendReadOnly(Message.EMPTY)
                .whenComplete((answer, failure) -> askingForLeader.remove(where));
        }
        return leaderOf(topic, partition);
    }

    /** A producer with an id of its own; its retries are stored once. */
    public ClusterProducer newProducer()
    {
        return new ClusterProducer(this);
    }

    /** Sends a write entry to the partition's group, in one Raft entry with others that wait beside it. */
    CompletableFuture<RaftClientReply> publish(final TopicPartition partition, final Message entry)
    {
        return partitions.publish(partition, entry);
    }

    /** The Raft entries this client has sent to the partition's group, an envelope of several counting once. */
    long raftEntriesSent(final TopicPartition partition)
    {
        return partitions.raftEntriesSent(partition);
    }

    /** Sends an entry to the metadata group. */
    CompletableFuture<RaftClientReply> sendToMetadata(final Message entry)
    {
        return metadata.async().send(entry);
    }

    ClusterGroups groups()
    {
        return groups;
    }

    /**
     * The group of a partition of the topic of that name the cluster has now.
     *
     * @throws UnknownTopicException     when the cluster has no such topic.
     * @throws UnknownPartitionException when the topic has no such partition.
     */
    RaftGroup partitionGroup(final TopicPartition partition)
    {
        return partitions.group(partition);
    }

    /**
     * @throws UnknownTopicException when the cluster has no such topic.
     */
    int partitionCount(final String topic)
    {
        return partitions.partitionCount(topic);
    }

    /** Waits until the new partition's group answers: every member has joined it and elected a leader. */
    private void awaitLeader(final TopicPartition partition)
    {
        final long deadline = System.nanoTime() + GROUP_START_WAIT.toNanos();
        IOException last = null;
        while (System.nanoTime() < deadline)
        {
            try
            {
                partitions.client(partition).io().sendReadOnly(Message.EMPTY);
                return;
            }
            catch (final IOException notYet)
            {
                last = notYet;
                LOGGER.debug("group of {} not ready yet", partition, notYet);
                pause();
            }
        }
        throw new UncheckedIOException("the group of " + partition + " elected no leader within " +
            GROUP_START_WAIT.toSeconds() + " s: is a majority of its nodes running?", last);
    }

    private static void pause()
    {
        try
        {
            Thread.sleep(50);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a group's leader", ex);
        }
    }

    private static Message send(final RaftClient client, final Message message)
    {
        try
        {
            return PartitionClients.answered(client.io().send(message));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("the cluster did not take the request", ex);
        }
    }

    @Override
    public void close()
    {
        partitions.close();
        PartitionClients.closeQuietly(metadata);
        answers.shutdown();
    }
}
