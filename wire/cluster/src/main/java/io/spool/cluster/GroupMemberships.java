package io.spool.cluster;

import io.spool.api.stream.TopicPartition;
import io.spool.cluster.ClusterEntryDescriptor.CreateTopic;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.GroupManagementRequest;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.server.RaftServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongPredicate;

/**
 * Joins and leaves, on this node, the groups of the partitions of replicated topics, as the metadata group applies
 * their creation and deletion. Both run on a thread of their own, in the order they were asked, so a group asked to
 * be joined and then left is never joined after it was left; and off Ratis' apply threads, since adding or removing
 * a group waits for the consensus server. The thread does nothing else, so the metadata group's apply thread can
 * wait for a leave without waiting for anything that waits for it. Leaving removes the group's Raft storage (its
 * log, snapshots and state) from {@code raft/}. Thread-safe.
 */
final class GroupMemberships
{
    private static final Logger LOGGER = LoggerFactory.getLogger(GroupMemberships.class);

    private final int nodeId;
    private final ClusterGroups groups;
    private final Path raftDirectory;
    private final CompletableFuture<RaftServer> consensus;
    private final ExecutorService thread;
    private final ClientId clientId = ClientId.randomId();
    private long callId;
    /** Groups placed on this node that are not joined yet, for the node's readiness. */
    private final AtomicInteger joinsPending = new AtomicInteger();

    /**
     * @param consensus completes once the node's consensus server has started; joins and leaves wait for it.
     * @param thread    a single thread that does nothing else; the node shuts it down when it closes.
     */
    GroupMemberships(final int nodeId, final ClusterGroups groups, final Path raftDirectory,
        final CompletableFuture<RaftServer> consensus, final ExecutorService thread)
    {
        this.nodeId = nodeId;
        this.groups = groups;
        this.raftDirectory = raftDirectory;
        this.consensus = consensus;
        this.thread = thread;
    }

    /** Joins, soon, the groups of the topic's partitions that are placed on this node. */
    void join(final CreateTopic topic)
    {
        for (int partition = 0; partition < topic.config().partitions(); partition++)
        {
            final RaftGroup group = groups.partition(topic.name(), partition, topic.replicationFactor(),
                topic.generation());
            if (group.getPeer(ClusterGroups.peerId(nodeId)) != null)
            {
                joinsPending.incrementAndGet();
                run(() -> join(group)) // a node that closes first joins when it starts again
                    .whenComplete((joined, closing) -> joinsPending.decrementAndGet());
            }
        }
    }

    /** How many groups placed on this node are still to be joined. */
    int joinsPending()
    {
        return joinsPending.get();
    }

    /**
     * Leaves, after what was asked before, the groups this node holds of the topic's first {@code partitions}
     * partitions whose generation {@code leaving} accepts, removing their storage.
     *
     * @return completes once they are left; fails with a RejectedExecutionException when the node closes first.
     */
    CompletableFuture<Void> leave(final String topic, final int partitions, final LongPredicate leaving)
    {
        return run(() ->
        {
            for (final RaftGroupId group : held(topic, partitions))
            {
                if (leaving.test(ClusterGroups.generationOf(group)))
                {
                    remove(group);
                }
            }
        });
    }

    /**
     * The groups of the topic's first {@code partitions} partitions whose storage is on this node, of any
     * generation: read from {@code raft/}, so that it answers while the consensus server still starts.
     */
    List<RaftGroupId> held(final String topic, final int partitions)
    {
        final File[] directories = raftDirectory.toFile().listFiles(File::isDirectory);
        if (directories == null)
        {
            return List.of();
        }
        final List<RaftGroupId> stored = new ArrayList<>();
        for (final File directory : directories)
        {
            final RaftGroupId group = groupIdOrNull(directory.getName());
            if (group != null)
            {
                stored.add(group);
            }
        }
        final List<TopicPartition> partitionsOfTopic = new ArrayList<>();
        for (int partition = 0; partition < partitions; partition++)
        {
            partitionsOfTopic.add(new TopicPartition(topic, partition));
        }
        return List.copyOf(groups.partitionsOf(stored, partitionsOfTopic).keySet());
    }

    private static RaftGroupId groupIdOrNull(final String directoryName)
    {
        try
        {
            return RaftGroupId.valueOf(UUID.fromString(directoryName));
        }
        catch (final IllegalArgumentException notAGroup)
        {
            return null;
        }
    }

    private CompletableFuture<Void> run(final Runnable task)
    {
        try
        {
            return CompletableFuture.runAsync(task, thread);
        }
        catch (final RejectedExecutionException closing)
        {
            return CompletableFuture.failedFuture(closing);
        }
    }

    private void join(final RaftGroup group)
    {
        final RaftServer raft = serverOrNull();
        if (raft == null)
        {
            return;
        }
        try
        {
            for (final RaftGroupId loaded : raft.getGroupIds())
            {
                if (loaded.equals(group.getGroupId()))
                {
                    return; // a restart applies the topic's entry again, and the group was loaded from storage
                }
            }
            final RaftClientReply reply = raft.groupManagement(GroupManagementRequest.newAdd(clientId, raft.getId(),
                nextCallId(), group));
            if (!reply.isSuccess())
            {
                LOGGER.error("node {} could not join group {}: {}", nodeId, group.getGroupId(), reply.getException());
            }
        }
        catch (final IOException ex)
        {
            LOGGER.error("node {} could not join group {}", nodeId, group.getGroupId(), ex);
        }
    }

    private void remove(final RaftGroupId group)
    {
        final RaftServer raft = serverOrNull();
        if (raft == null)
        {
            return;
        }
        try
        {
            // a store the removal cuts short is no failed write to leave the group over
            ((PartitionStateMachine)raft.getDivision(group).getStateMachine()).closing();
            final RaftClientReply reply = raft.groupManagement(GroupManagementRequest.newRemove(clientId,
                raft.getId(), nextCallId(), group, true, false));
            if (!reply.isSuccess())
            {
                LOGGER.error("node {} could not leave group {} of a deleted topic: {}", nodeId, group,
                    reply.getException());
            }
        }
        catch (final IOException ex)
        {
            LOGGER.error("node {} could not leave group {} of a deleted topic", nodeId, group, ex);
        }
    }

    /** Only that one thread asks for call ids. */
    private long nextCallId()
    {
        return ++callId;
    }

    private RaftServer serverOrNull()
    {
        try
        {
            return consensus.join();
        }
        catch (final CompletionException notStarted)
        {
            return null;
        }
    }
}
