package io.spool.wire.kafka;

import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicPartition;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What the Kafka listener of a cluster node needs of the cluster: which brokers exist, who leads each partition and
 * who coordinates consumer groups, and a replicated append for produce, topic creation and deletion, and producer
 * ids. The cluster module implements it, so that this module knows nothing of consensus (as
 * {@code ReplicatedPublishes} does for the native server); a listener without one is a single node that leads every
 * partition. Implementations are thread-safe; {@link #placement}, {@link #groupCoordinator} and {@link #append} do
 * not block (they run on a connection's event loop), the others may (they run on the listener's admin thread).
 */
public interface KafkaCluster
{
    /** A node's Kafka listener as clients reach it. */
    record Broker(int nodeId, String host, int port)
    {
    }

    /**
     * Where a partition is kept, as this node knows it now.
     *
     * @param leader      the leading node's id, or -1 while this node knows no leader.
     * @param leaderEpoch the leader's term: it grows with every new leader, as Kafka's leader epoch does.
     * @param replicas    the ids of the nodes that keep the partition.
     * @param ledHere     this node leads the partition and has committed an entry of its term, so it serves it.
     */
    record Placement(int leader, int leaderEpoch, List<Integer> replicas, boolean ledHere)
    {
    }

    /** What the partition's group did with a producer's batch. */
    enum Outcome
    {
        STORED,
        /** A retry of one of the producer's last batches: answered with its first offset, not stored again. */
        DUPLICATE,
        /** A retry of a batch older than those remembered: stored before, where no longer known. */
        DUPLICATE_FORGOTTEN,
        /** The batch's first sequence is not the one after the producer's last batch. */
        OUT_OF_ORDER_SEQUENCE,
        /** An epoch older than the producer's current one. */
        FENCED_EPOCH
    }

    /** @param baseOffset the first record's offset when stored or a duplicate, else -1. */
    record Appended(Outcome outcome, long baseOffset, String problem)
    {
    }

    /** This node's id: its broker id. */
    int nodeId();

    /** Every node whose Kafka listener the cluster has heard of, by id. */
    List<Broker> brokers();

    /**
     * The node that coordinates every consumer group, as this node knows it now: the leader of the cluster's
     * metadata group, which every node learns from the same elections and which moves when that node is lost; -1
     * while this node knows no leader.
     */
    int groupCoordinator();

    /** @throws io.spool.api.stream.UnknownTopicException when the cluster has no such topic. */
    Placement placement(String topic, int partition);

    /**
     * Appends a batch through the partition's group; completes once a majority holds it (or with why not).
     *
     * @param producerId -1 for a batch without a producer id (stored every time it is sent).
     */
    CompletableFuture<Appended> append(String topic, int partition, long producerId, short epoch, int baseSequence,
        List<ProducerRecord> records);

    /** A producer id no other node of the cluster hands out. */
    long newProducerId();

    /** The replication factor of a topic created without one. */
    int defaultReplicationFactor();

    /** @throws IllegalArgumentException saying why the factor cannot be placed on this cluster. */
    void checkReplicationFactor(int replicationFactor);

    /**
     * Creates a replicated topic and returns once every partition has a leader.
     *
     * @throws IllegalArgumentException when the replication factor cannot be placed on this cluster.
     * @throws io.spool.api.stream.TopicExistsException when the cluster has a topic of that name.
     */
    void createTopic(String name, int replicationFactor, TopicConfig config);

    /**
     * Deletes a replicated topic on every node of the cluster.
     *
     * @throws io.spool.api.stream.UnknownTopicException when the cluster has no topic of that name.
     */
    void deleteTopic(String name);

    /**
     * Changes a replicated topic's retention limits on every node of the cluster.
     *
     * @throws io.spool.api.stream.UnknownTopicException when the cluster has no topic of that name.
     * @throws IllegalArgumentException                  when a limit is out of range.
     */
    void alterTopicRetention(String name, long retentionMillis, long retentionBytes);

    /**
     * This node's epoch as the group coordinator: the metadata group's term in which it became the leader, while it
     * leads (a later coordinator's epoch is higher); -1 while it does not.
     */
    long coordinatorEpoch();

    /**
     * Commits a consumer group's offset in a partition through the partition's group, in order with its records, as
     * the coordinator of {@code coordinatorEpoch}.
     *
     * @return false, committing nothing, when the partition has applied a commit of the group from a coordinator of
     *         a later epoch: this node no longer coordinates the group.
     * @throws io.spool.api.InvalidRequestException when the offset is above the partition's replicated end.
     */
    boolean commitOffset(String group, TopicPartition partition, long offset, long coordinatorEpoch);

    /**
     * Deletes a consumer group's offset in a partition on every node of the partition's group, as the coordinator of
     * {@code coordinatorEpoch}.
     *
     * @return false, deleting nothing, when the partition has applied a commit of the group from a coordinator of
     *         a later epoch.
     */
    boolean deleteGroupOffset(String group, TopicPartition partition, long coordinatorEpoch);

    /** The group's committed offset in a partition as the partition's leader holds it; -1 for none. */
    long committedOffset(String group, TopicPartition partition);
}
