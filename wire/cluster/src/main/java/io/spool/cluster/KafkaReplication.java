package io.spool.cluster;

import io.spool.api.SpoolException;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicPartition;
import io.spool.cluster.ClusterEntryDescriptor.Reply;
import io.spool.cluster.KafkaEntryDescriptor.KafkaAddress;
import io.spool.wire.kafka.KafkaCluster;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The cluster as a node's Kafka listener sees it: brokers are the nodes that announced their listener through the
 * metadata group ({@link KafkaBrokers}); a partition's leader, epoch (the Raft term) and replicas are what this node's
 * member of the partition's group knows; a produced batch is a KAFKA_PUBLISH entry of the partition's group, sent
 * through a cluster client of its own; producer ids come in blocks no other node has ({@link ProducerIdBlocks}).
 * Thread-safe.
 * <p>
 * Design note: batches are handed to Ratis from one thread of their own, in the order the event loops gave them, as
 * {@link ForwardedPublishes} does: the first batch to a partition may wait for the metadata group to describe the
 * topic, which must not hold up an event loop, and Ratis keeps one client's requests in the order they were sent.
 */
final class KafkaReplication implements KafkaCluster, AutoCloseable
{
    /** How long a claim of producer ids waits for the metadata group before InitProducerId is told to retry. */
    private static final Duration CLAIM_WAIT = Duration.ofSeconds(10);

    private final int nodeId;
    private final RaftServer raft;
    private final ClusterClient cluster;
    private final KafkaBrokers brokers;
    private final ProducerIdBlocks producerIds;
    private final ExecutorService appender = Executors.newSingleThreadExecutor(runnable ->
    {
        final Thread thread = new Thread(runnable, "spool-cluster-kafka");
        thread.setDaemon(true);
        return thread;
    });
    private volatile KafkaAddress listener;

    /** Appends through a cluster client of its own, which {@link #close} closes. */
    KafkaReplication(final int nodeId, final ClusterMembers members, final RaftServer raft,
        final KafkaBrokers brokers)
    {
        this.nodeId = nodeId;
        this.raft = raft;
        this.brokers = brokers;
        this.cluster = ClusterClient.connect(members);
        this.producerIds = new ProducerIdBlocks(this::claimBlock);
    }

    /**
     * Tells the cluster where this node's Kafka listener is, and takes the entry's index as a block of producer ids;
     * the caller retries until it succeeds.
     */
    void announce(final String host, final int port)
    {
        listener = new KafkaAddress(nodeId, host, port);
        producerIds.claimed(claimBlock());
    }

    /** Commits this node's announcement (again) and returns the entry's index. */
    private long claimBlock()
    {
        final KafkaAddress address = listener;
        if (address == null)
        {
            throw new SpoolException("node " + nodeId + " has not started its Kafka listener yet");
        }
        try
        {
            final RaftClientReply answer = cluster.sendToMetadata(KafkaEntryDescriptor.announceKafka(address))
                .get(CLAIM_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            if (!answer.isSuccess())
            {
                throw new SpoolException("the metadata group refused node " + nodeId + "'s announcement: " +
                    answer.getException().getMessage(), answer.getException());
            }
            return ClusterEntryDescriptor.decodeReply(answer.getMessage().getContent()).baseOffset();
        }
        catch (final TimeoutException ex)
        {
            throw new SpoolException("the cluster's metadata group did not answer within " + CLAIM_WAIT.toSeconds() +
                " s: is a majority of the nodes running?", ex);
        }
        catch (final ExecutionException ex)
        {
            throw new SpoolException("node " + nodeId + " could not announce its Kafka listener: " +
                ex.getCause().getMessage(), ex.getCause());
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new SpoolException("interrupted while announcing node " + nodeId + "'s Kafka listener", ex);
        }
    }

    @Override
    public int nodeId()
    {
        return nodeId;
    }

    @Override
    public List<Broker> brokers()
    {
        return brokers.brokers();
    }

    /** The metadata group's leader as this node's member of it knows it. */
    @Override
    public int groupCoordinator()
    {
        return ClusterGroups.leaderOf(raft, cluster.groups().metadata().getGroupId());
    }

    /**
     * Read from this node's member of the partition's group; a node outside the group asks its cluster client,
     * which the first time describes the topic through the metadata group, and asks the group again for its leader
     * in the background, so that the next Metadata names a leader elected since.
     */
    @Override
    public Placement placement(final String topic, final int partition)
    {
        final TopicPartition where = new TopicPartition(topic, partition);
        final RaftServer.Division division = divisionOrNull(where);
        if (division == null)
        {
            final List<Integer> replicas = new ArrayList<>();
            cluster.partitionGroup(where).getPeers().forEach(peer -> replicas.add(ClusterGroups.nodeId(peer.getId())));
            return new Placement(cluster.leaderOfAskingAgain(topic, partition), -1, replicas, false);
        }
        final DivisionInfo info = division.getInfo();
        final RaftPeerId leader = info.getLeaderId();
        final List<Integer> replicas = new ArrayList<>();
        for (final RaftPeer peer : division.getGroup().getPeers())
        {
            replicas.add(ClusterGroups.nodeId(peer.getId()));
        }
        replicas.sort(Integer::compare);
        return new Placement(leader == null ? -1 : ClusterGroups.nodeId(leader),
            (int)Math.min(Integer.MAX_VALUE, info.getCurrentTerm()), replicas, info.isLeader() && info.isLeaderReady());
    }

    /** This node's member of the partition's group, or null when it is none. */
    private RaftServer.Division divisionOrNull(final TopicPartition where)
    {
        final RaftGroupId group = cluster.groups().groupOf(raft.getGroupIds(), where);
        if (group == null)
        {
            return null;
        }
        try
        {
            return raft.getDivision(group);
        }
        catch (final IOException left)
        {
            return null;
        }
    }

    @Override
    public CompletableFuture<Appended> append(final String topic, final int partition, final long producerId,
        final short epoch, final int baseSequence, final List<ProducerRecord> records)
    {
        final TopicPartition where = new TopicPartition(topic, partition);
        return CompletableFuture.supplyAsync(() -> cluster.publish(where, KafkaEntryDescriptor.kafkaPublish(
                producerId, epoch, baseSequence, ClusterProducer.stamped(records))), appender)
            .thenCompose(sent -> sent)
            .thenApply(answer -> appended(where, answer));
    }

    private static Appended appended(final TopicPartition where, final RaftClientReply answer)
    {
        if (!answer.isSuccess())
        {
            throw new CompletionException(new SpoolException("a batch to " + where + " failed: " +
                answer.getException().getMessage(), answer.getException()));
        }
        final Reply reply = ClusterEntryDescriptor.decodeReply(answer.getMessage().getContent());
        return switch (reply.status())
        {
            case ClusterEntryDescriptor.STATUS_STORED -> new Appended(Outcome.STORED, reply.baseOffset(), "");
            case ClusterEntryDescriptor.STATUS_DUPLICATE -> new Appended(Outcome.DUPLICATE, reply.baseOffset(), "");
            case KafkaEntryDescriptor.STATUS_OUT_OF_ORDER ->
                new Appended(Outcome.OUT_OF_ORDER_SEQUENCE, -1, reply.problem());
            case KafkaEntryDescriptor.STATUS_FENCED_EPOCH -> new Appended(Outcome.FENCED_EPOCH, -1, reply.problem());
            case KafkaEntryDescriptor.STATUS_DUPLICATE_FORGOTTEN ->
                new Appended(Outcome.DUPLICATE_FORGOTTEN, -1, reply.problem());
            default -> throw new CompletionException(new SpoolException(reply.problem()));
        };
    }

    /**
     * @throws SpoolException when a new block is needed and the metadata group does not commit its claim in time.
     */
    @Override
    public long newProducerId()
    {
        return producerIds.next();
    }

    @Override
    public int defaultReplicationFactor()
    {
        return Math.min(3, cluster.groups().members().size());
    }

    @Override
    public void checkReplicationFactor(final int replicationFactor)
    {
        cluster.groups().checkReplicationFactor(replicationFactor);
    }

    @Override
    public void createTopic(final String name, final int replicationFactor, final TopicConfig config)
    {
        cluster.createTopic(name, replicationFactor, config);
    }

    @Override
    public void deleteTopic(final String name)
    {
        cluster.deleteTopic(name);
    }

    @Override
    public void alterTopicRetention(final String name, final long retentionMillis, final long retentionBytes)
    {
        cluster.alterTopicRetention(name, retentionMillis, retentionBytes);
    }

    /**
     * The metadata group's term while this node leads it: every term has one leader at most, and a node that
     * leads again does so in a later term, so the term it gained the leadership in is the one it reads as long as
     * it leads.
     */
    @Override
    public long coordinatorEpoch()
    {
        final DivisionInfo metadata;
        try
        {
            metadata = raft.getDivision(cluster.groups().metadata().getGroupId()).getInfo();
        }
        catch (final IOException closing)
        {
            return -1;
        }
        final long term = metadata.getCurrentTerm();
        // a term read on both sides of the leadership check is one this node led in
        return metadata.isLeader() && metadata.getCurrentTerm() == term ? term : -1;
    }

    @Override
    public boolean commitOffset(final String group, final TopicPartition partition, final long offset,
        final long coordinatorEpoch)
    {
        return cluster.commitOffset(group, partition.topic(), partition.partition(), offset, coordinatorEpoch);
    }

    @Override
    public boolean deleteGroupOffset(final String group, final TopicPartition partition, final long coordinatorEpoch)
    {
        return cluster.deleteGroupOffset(group, partition, coordinatorEpoch);
    }

    @Override
    public long committedOffset(final String group, final TopicPartition partition)
    {
        return cluster.committedOffset(group, partition.topic(), partition.partition());
    }

    /** Stops appending; batches handed on and not yet confirmed fail. */
    @Override
    public void close()
    {
        appender.shutdownNow();
        cluster.close();
    }
}
