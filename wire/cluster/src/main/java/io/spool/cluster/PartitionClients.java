package io.spool.cluster;

import io.spool.api.stream.TopicPartition;
import io.spool.api.stream.UnknownPartitionException;
import io.spool.api.stream.UnknownTopicException;
import io.spool.cluster.ClusterEntryDescriptor.CreateTopic;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.exceptions.GroupMismatchException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * The topics of a cluster as one client knows them, and a Raft client for the group of each partition it sends to:
 * a topic is described by the metadata group the first time it is named, and its groups follow from that
 * ({@link ClusterGroups#partition}). A group that answers it is gone belongs to a deleted topic: the client forgets
 * the topic and sends once more, to the group of the topic the name stands for now, or fails with
 * {@link UnknownTopicException} when there is none. Thread-safe.
 */
final class PartitionClients implements AutoCloseable
{
    private static final Logger LOGGER = LoggerFactory.getLogger(PartitionClients.class);

    /** A request to a partition's group. */
    @FunctionalInterface
    interface GroupCall<T>
    {
        T call(RaftClient group) throws IOException;
    }

    private final ClusterGroups groups;
    private final RaftClient metadata;
    private final Function<RaftGroup, RaftClient> newClient;
    private final Executor answers;
    private final Map<String, CreateTopic> topics = new ConcurrentHashMap<>();
    private final Map<TopicPartition, RaftClient> partitions = new ConcurrentHashMap<>();
    private final Map<TopicPartition, EntryCoalescer> publishers = new ConcurrentHashMap<>();
    /** The publishers and clients of forgotten topics' groups. */
    private final Queue<EntryCoalescer> retiredPublishers = new ConcurrentLinkedQueue<>();
    private final Queue<RaftClient> retiredClients = new ConcurrentLinkedQueue<>();

    /**
     * @param answers where publishes are answered, off Ratis' threads ({@link EntryCoalescer}).
     */
    PartitionClients(final ClusterGroups groups, final RaftClient metadata,
        final Function<RaftGroup, RaftClient> newClient, final Executor answers)
    {
        this.groups = groups;
        this.metadata = metadata;
        this.newClient = newClient;
        this.answers = answers;
    }

    /** Notes a topic this client created, with the generation the metadata group gave it. */
    void created(final CreateTopic topic)
    {
        topics.put(topic.name(), topic);
    }

    /**
     * @throws UnknownTopicException when the cluster has no such topic.
     */
    CreateTopic describe(final String name)
    {
        return topics.computeIfAbsent(name, n ->
        {
            try
            {
                final Message answer = metadata.io().sendReadOnly(Message.valueOf(n)).getMessage();
                if (answer.getContent().isEmpty())
                {
                    throw new UnknownTopicException("the cluster has no topic " + n);
                }
                return ClusterEntryDescriptor.decodeCreateTopic(answer.getContent());
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException("the cluster's metadata group did not answer", ex);
            }
        });
    }

    /**
     * The group of a partition of the topic of that name the cluster has now.
     *
     * @throws UnknownTopicException     when the cluster has no such topic.
     * @throws UnknownPartitionException when the topic has no such partition.
     */
    RaftGroup group(final TopicPartition partition)
    {
        final CreateTopic topic = describe(partition.topic());
        if (partition.partition() < 0 || partition.partition() >= topic.config().partitions())
        {
            throw new UnknownPartitionException("topic " + partition.topic() + " has " +
                topic.config().partitions() + " partitions, not partition " + partition.partition());
        }
        return groups.partition(partition.topic(), partition.partition(), topic.replicationFactor(),
            topic.generation());
    }

    RaftClient client(final TopicPartition partition)
    {
        return partitions.computeIfAbsent(partition, p -> newClient.apply(group(p)));
    }

    /** Makes a request of the partition's group, once more after forgetting the topic if the group is gone. */
    <T> T call(final TopicPartition partition, final GroupCall<T> call) throws IOException
    {
        try
        {
            return call.call(client(partition));
        }
        catch (final GroupMismatchException gone)
        {
            forget(partition.topic());
            return call.call(client(partition));
        }
    }

    /**
     * Sends an entry to the partition's group and waits for its answer.
     *
     * @throws UnknownTopicException     when the cluster has no such topic.
     * @throws UnknownPartitionException when the topic has no such partition.
     */
    Message send(final TopicPartition partition, final Message message)
    {
        try
        {
            return call(partition, group -> answered(group.io().send(message)));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("the group of " + partition + " did not take the request", ex);
        }
    }

    /** The reply's message, or the exception it holds (a group mismatch, say). */
    static Message answered(final RaftClientReply reply) throws IOException
    {
        if (!reply.isSuccess())
        {
            throw reply.getException();
        }
        return reply.getMessage();
    }

    /**
     * @throws UnknownTopicException when the cluster has no such topic.
     */
    int partitionCount(final String topic)
    {
        return describe(topic).config().partitions();
    }

    /**
     * Sends a write entry to the partition's group, in one Raft entry with others that wait beside it; once more
     * after forgetting the topic if the group is gone.
     */
    CompletableFuture<RaftClientReply> publish(final TopicPartition partition, final Message entry)
    {
        return publisher(partition).send(entry).handle((reply, failure) ->
        {
            if (!isGone(reply, failure))
            {
                return failure == null ? CompletableFuture.completedFuture(reply) :
                    CompletableFuture.<RaftClientReply>failedFuture(failure);
            }
            forget(partition.topic());
            return publisher(partition).send(entry);
        }).thenCompose(answer -> answer);
    }

    private EntryCoalescer publisher(final TopicPartition partition)
    {
        return publishers.computeIfAbsent(partition,
            p -> new EntryCoalescer(client(p).async()::send, answers, RaftSettings.MAX_ENTRY_BYTES));
    }

    private static boolean isGone(final RaftClientReply reply, final Throwable failure)
    {
        Throwable cause = failure != null ? failure : reply.isSuccess() ? null : reply.getException();
        while (cause instanceof CompletionException && cause.getCause() != null)
        {
            cause = cause.getCause();
        }
        return cause instanceof GroupMismatchException;
    }

    /** The Raft entries this client has sent to the partition's group, an envelope of several counting once. */
    long raftEntriesSent(final TopicPartition partition)
    {
        final EntryCoalescer publisher = publishers.get(partition);
        return publisher == null ? 0 : publisher.entriesSent();
    }

    /**
     * Drops what this client knows of a topic and its groups: the next request asks the metadata group again.
     * Their clients are closed with this one, so that entries already handed to them are still answered.
     */
    void forget(final String topic)
    {
        topics.remove(topic);
        retire(publishers, retiredPublishers, topic);
        retire(partitions, retiredClients, topic);
    }

    private static <T> void retire(final Map<TopicPartition, T> current, final Queue<T> retired, final String topic)
    {
        for (final TopicPartition partition : current.keySet())
        {
            final T removed = partition.topic().equals(topic) ? current.remove(partition) : null;
            if (removed != null)
            {
                retired.add(removed);
            }
        }
    }

    @Override
    public void close()
    {
        publishers.values().forEach(EntryCoalescer::close);
        retiredPublishers.forEach(EntryCoalescer::close);
        partitions.values().forEach(PartitionClients::closeQuietly);
        retiredClients.forEach(PartitionClients::closeQuietly);
    }

    static void closeQuietly(final RaftClient client)
    {
        try
        {
            client.close();
        }
        catch (final IOException ex)
        {
            LOGGER.warn("closing a Raft client", ex);
        }
    }
}
