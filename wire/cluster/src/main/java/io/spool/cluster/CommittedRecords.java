package io.spool.cluster;

import io.spool.api.SpoolException;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.PublishResult;
import io.spool.api.stream.TopicPartition;
import io.spool.cluster.ClusterEntryDescriptor.CommitOffset;
import io.spool.cluster.ClusterEntryDescriptor.DeleteGroupOffset;
import io.spool.cluster.ClusterEntryDescriptor.Publish;
import io.spool.cluster.ClusterEntryDescriptor.Reply;
import io.spool.log.PartitionLog;
import io.spool.stream.GroupCoordinator;
import io.spool.stream.StreamProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import static io.spool.cluster.ClusterEntryDescriptor.STATUS_DUPLICATE;
import static io.spool.cluster.ClusterEntryDescriptor.STATUS_STALE_COORDINATOR;
import static io.spool.cluster.ClusterEntryDescriptor.STATUS_STORED;

/**
 * What a partition group's committed PUBLISH, KAFKA_PUBLISH, COMMIT_OFFSET and DELETE_GROUP_OFFSET entries do on
 * this node: each batch takes the next replicated offsets and is stored in the node's Spool log, and each commit
 * sets (each deletion removes) a consumer group's offset in the node's engine, in order with the records. A commit or
 * deletion from a stale coordinator is refused when it is applied ({@link CoordinatorEpochs}).
 * <p>
 * Offsets are counted from the entries, not read from the log: the n-th record the group commits takes offset n on
 * every node. Records already in the local log (below its end when the node opened it) are counted and not stored
 * again, and a batch cut by a crash has only its missing tail stored. A retried batch (the same producer id and
 * sequence) is answered with the offsets it first got and stored once ({@link ProducerWindows}); since the windows
 * too are rebuilt by applying the same entries, any node that leads answers a retry the same way.
 * <p>
 * Batches are counted on the apply thread, one entry at a time; their stores complete on the pipeline's thread and
 * commits run on the common pool once the records before them are stored. The replicated end is read by queries
 * beside the apply thread.
 */
final class CommittedRecords
{
    private static final Logger LOGGER = LoggerFactory.getLogger(CommittedRecords.class);

    private final TopicPartition where;
    private final PartitionLog log;
    private final StreamProducer producer;
    private final GroupCoordinator groups;
    private final ProducerWindows windows = new ProducerWindows();
    /** This node's Spool log directory, named when a store fails. */
    private final Path logDirectory;
    private final PartitionGroupExit exit;
    /**
     * The offsets committed through this group, by consumer group, for the snapshot: the engine also holds offsets
     * committed on this node alone, which are not the group's to copy. Written on the common pool, in entry order.
     */
    private final Map<String, Long> replicatedCommits = new ConcurrentHashMap<>();
    private final CoordinatorEpochs coordinatorEpochs = new CoordinatorEpochs();
    /**
     * The offset the next committed record takes, counted over every entry applied since this node started;
     * written by the apply thread, read by queries too.
     */
    private volatile long nextOffset;
    /** The local log's end when the node opened it: records below it were stored before a restart. */
    private long storedEnd;
    /** Completes once every entry applied so far is in the local log. */
    private CompletableFuture<Reply> stored = CompletableFuture.completedFuture(null);
    /** Completes once the local log holds every record of the loaded snapshot; records after wait for it. */
    private volatile CompletableFuture<Void> repaired = CompletableFuture.completedFuture(null);
    /**
     * Completes once the batch before has been handed to the pipeline: each batch waits for the one before, not
     * for the repair itself, since the many dependents of one future run in no promised order and batches waiting
     * for a repair must still reach the log in entry order. Written by the apply thread only.
     */
    private CompletableFuture<Void> handedOn = CompletableFuture.completedFuture(null);

    CommittedRecords(final TopicPartition where, final PartitionLog log, final StreamProducer producer,
        final GroupCoordinator groups, final Path logDirectory, final PartitionGroupExit exit)
    {
        this.where = where;
        this.log = log;
        this.producer = producer;
        this.groups = groups;
        this.logDirectory = logDirectory;
        this.exit = exit;
    }

    /** The offset the next committed record takes: the end of the records applied so far. */
    long replicatedEnd()
    {
        return nextOffset;
    }

    ProducerWindows windows()
    {
        return windows;
    }

    /** The consumer-group offsets committed through the group, for its snapshot. */
    Map<String, Long> replicatedCommits()
    {
        return replicatedCommits;
    }

    /** The consumer groups' coordinator epochs, judged and raised on the apply thread. */
    CoordinatorEpochs coordinatorEpochs()
    {
        return coordinatorEpochs;
    }

    /**
     * Why no snapshot can be taken now, or null when every entry applied so far is stored and the local log holds
     * every replicated record.
     */
    String notSnapshottable()
    {
        if (!stored.isDone() || stored.isCompletedExceptionally())
        {
            return (stored.isDone() ? "an entry before it was not stored" : "its records are still being stored") +
                "; the next snapshot tries again";
        }
        return log.endOffset() < nextOffset ?
            "its log ends at " + log.endOffset() + ", below the replicated end " + nextOffset : null;
    }

    /**
     * Counts the local log's records as stored: those below its end now are not stored again. Called when the node
     * loads its state, from a snapshot or from nothing.
     *
     * @return the local log's end.
     */
    long countStored()
    {
        storedEnd = log.endOffset();
        return storedEnd;
    }

    /**
     * Goes on from a snapshot's state: the next record takes {@code replicatedEnd}, no later record is stored until
     * {@code repaired} completes (the local log then holds every record below that end), and the snapshot's group
     * offsets are committed again after it. A group committed through the group before and missing from the
     * snapshot was deleted while this node was away (the leader sent a snapshot taken after the deletion): its
     * offset goes here too.
     */
    void restore(final long replicatedEnd, final Map<String, Long> groupOffsets,
        final CompletableFuture<Void> repaired)
    {
        nextOffset = replicatedEnd;
        final Set<String> deleted = new HashSet<>(replicatedCommits.keySet());
        deleted.removeAll(groupOffsets.keySet());
        replicatedCommits.clear();
        this.repaired = repaired;
        handedOn = repaired;
        stored = repaired.thenApplyAsync(done ->
        {
            deleted.forEach(this::forget);
            groupOffsets.forEach((group, offset) ->
                commit(new CommitOffset(group, offset, CoordinatorEpochs.UNFENCED), replicatedEnd));
            return null;
        });
    }

    /**
     * The node is closing: a repair of the log stops, and what waits for it fails (Ratis waits for every applied
     * entry's future before it stops the group, so a repair that cannot end would hold up the close). The restarted
     * node repairs again from its snapshot.
     */
    void closing()
    {
        repaired.completeExceptionally(new IllegalStateException(where + " was closed before its log held every " +
            "record of its snapshot; it fetches them again when it starts"));
    }

    CompletableFuture<Reply> publish(final Publish publish)
    {
        return latest(storeOnce(publish));
    }

    /** A Kafka producer's batch, its sequence judged as a Kafka partition leader would ({@link KafkaSequences}). */
    CompletableFuture<Reply> kafkaPublish(final KafkaEntryDescriptor.KafkaPublish publish)
    {
        return latest(storeKafka(publish));
    }

    /**
     * Commits the offset after the records before it are in the local log, which the engine checks a commit
     * against; off the pipeline's thread, which completes appends and must not wait for the offsets file.
     */
    CompletableFuture<Reply> commitOffset(final CommitOffset commit)
    {
        if (!coordinatorEpochs.admit(commit.group(), commit.coordinatorEpoch()))
        {
            return CompletableFuture.completedFuture(staleCoordinator(commit.group(), commit.coordinatorEpoch(),
                "commit"));
        }
        final long replicatedEnd = nextOffset;
        return latest(stored.handleAsync((done, failed) -> commit(commit, replicatedEnd)));
    }

    /**
     * Removes a consumer group's offset here, and its coordinator epoch, once the entries before are stored: the
     * group's consumers start by their reset policy, and its next coordinator commits from any epoch.
     */
    CompletableFuture<Reply> deleteGroupOffset(final DeleteGroupOffset delete)
    {
        if (!coordinatorEpochs.admit(delete.group(), delete.coordinatorEpoch()))
        {
            return CompletableFuture.completedFuture(staleCoordinator(delete.group(), delete.coordinatorEpoch(),
                "deletion"));
        }
        coordinatorEpochs.forget(delete.group());
        return latest(stored.handleAsync((done, failed) -> forget(delete.group())));
    }

    private Reply staleCoordinator(final String group, final long epoch, final String what)
    {
        return new Reply(STATUS_STALE_COORDINATOR, -1, 0, "the " + what + " of group " + group + "'s offset in " +
            where.topic() + "-" + where.partition() + " comes from a coordinator of epoch " + epoch + ", and one of " +
            "epoch " + coordinatorEpochs.highest(group) + " has committed there: the node that sent it no longer " +
            "coordinates the group");
    }

    /** Makes the entry's outcome the one every later snapshot and commit waits for. */
    private CompletableFuture<Reply> latest(final CompletableFuture<Reply> applied)
    {
        stored = applied;
        return applied;
    }

    private CompletableFuture<Reply> storeOnce(final Publish publish)
    {
        final List<ProducerRecord> records = publish.records();
        if (windows.isRetry(publish.producerId(), publish.sequence()))
        {
            final ProducerWindows.Batch first = windows.retained(publish.producerId(), publish.sequence());
            return CompletableFuture.completedFuture(first == null ?
                Reply.refused("batch " + publish.sequence() + " of producer " + publish.producerId() + " is older " +
                    "than its last " + ProducerWindows.RETAINED_BATCHES + " batches: it was stored before, where " +
                    "is no longer known") :
                new Reply(STATUS_DUPLICATE, first.baseOffset(), first.count(), ""));
        }
        windows.appended(publish.producerId(), publish.sequence(), nextOffset, records.size());
        return store(records);
    }

    private CompletableFuture<Reply> storeKafka(final KafkaEntryDescriptor.KafkaPublish publish)
    {
        if (publish.hasProducerId())
        {
            final Reply answered = KafkaSequences.check(windows, publish);
            if (answered != null)
            {
                return CompletableFuture.completedFuture(answered);
            }
            windows.appended(publish.producerId(), publish.baseSequence(), nextOffset, publish.records().size());
        }
        return store(publish.records());
    }

    /** Gives the batch the next offsets, and stores what of it the local log does not hold yet. */
    private CompletableFuture<Reply> store(final List<ProducerRecord> records)
    {
        final long baseOffset = nextOffset;
        final int count = records.size();
        nextOffset += count;
        final int alreadyStored = (int)Math.max(0, Math.min(count, storedEnd - baseOffset));
        final Reply stored = new Reply(STATUS_STORED, baseOffset, count, "");
        if (alreadyStored == count)
        {
            return CompletableFuture.completedFuture(stored);
        }
        final long expectedFirst = baseOffset + alreadyStored;
        final List<ProducerRecord> missing = records.subList(alreadyStored, count);
        final CompletableFuture<CompletableFuture<List<PublishResult>>> handed =
            handedOn.thenApply(done -> producer.sendBatch(missing));
        handedOn = handed.thenApply(sending -> null);
        return handed.thenCompose(Function.identity()).whenComplete((results, failure) ->
        {
            if (failure != null && !repaired.isCompletedExceptionally())
            {
                exit.afterFailedWrite("a committed batch", logDirectory, failure);
            }
        }).thenApply(results ->
        {
            final PublishResult first = results.get(0);
            if (first.offset() != expectedFirst)
            {
                // Only this group writes this log, so this means the log was written around the cluster.
                LOGGER.error("{}-{} stored a committed batch at offset {} instead of {}: this node's log no longer " +
                    "matches the cluster's; stop the node, delete its log directory (keep raft/) and start it again to " +
                    "rebuild every partition from the groups' logs", where.topic(), where.partition(),
                    first.offset(), expectedFirst);
                throw new IllegalStateException("replicated log of " + where.topic() + "-" + where.partition() +
                    " diverged at " + expectedFirst);
            }
            return stored;
        });
    }

    /**
     * Commits a consumer group's offset in this node's engine. The bound is the replicated end counted when the
     * entry was applied, not the local log's end, so that every node (and a node replaying after a restart, whose
     * log may be ahead) judges the commit the same way.
     */
    private Reply commit(final CommitOffset commit, final long replicatedEnd)
    {
        if (commit.offset() < 0 || commit.offset() > replicatedEnd)
        {
            return Reply.refused("offset " + commit.offset() + " of " + where.topic() + "-" + where.partition() +
                " is outside [0, " + replicatedEnd + "], the partition's replicated records");
        }
        return changeOffsets(() ->
        {
            groups.commitStandalone(commit.group(), Map.of(where, commit.offset()));
            replicatedCommits.put(commit.group(), commit.offset());
        }, new Reply(STATUS_STORED, commit.offset(), 0, ""));
    }

    private Reply forget(final String group)
    {
        return changeOffsets(() ->
        {
            groups.forgetOffset(group, where);
            replicatedCommits.remove(group);
        }, new Reply(STATUS_STORED, -1, 0, ""));
    }

    /** Changes the engine's offsets, answering {@code done}, or why the engine or the disk refused. */
    private Reply changeOffsets(final Runnable change, final Reply done)
    {
        try
        {
            change.run();
        }
        catch (final SpoolException refused)
        {
            return Reply.refused(refused.getMessage());
        }
        catch (final UncheckedIOException unwritten)
        {
            // not a bad commit but a disk that refused it: this node's offsets would differ from the others'
            exit.afterFailedWrite("a consumer group's offset", logDirectory, unwritten);
            return Reply.refused(unwritten.getMessage());
        }
        return done;
    }
}
