package io.spool.cluster;

import io.spool.api.stream.TopicPartition;
import io.spool.cluster.ClusterEntryDescriptor.Reply;
import io.spool.log.PartitionLog;
import io.spool.stream.GroupCoordinator;
import org.apache.ratis.protocol.Message;

import static io.spool.cluster.ClusterEntryDescriptor.STATUS_STORED;

/**
 * Answers the read-only queries a partition's group is asked, beside the apply thread: the replicated end, a
 * consumer group's committed offset, and the records a member repairing its log asks for. Thread-safe: it reads the
 * replicated end, the engine's offsets and the log, each safe to read from any thread.
 */
final class PartitionQueries
{
    private final TopicPartition where;
    private final PartitionLog log;
    private final GroupCoordinator groups;
    private final CommittedRecords records;

    PartitionQueries(final TopicPartition where, final PartitionLog log, final GroupCoordinator groups,
        final CommittedRecords records)
    {
        this.where = where;
        this.log = log;
        this.groups = groups;
        this.records = records;
    }

    /**
     * Answers an empty query with the offset the next committed record will take (the partition's replicated end),
     * and a query naming a consumer group with its committed offset here.
     */
    Message answer(final Message request)
    {
        final long answer = request.getContent().isEmpty() ? records.replicatedEnd() :
            groups.committed(request.getContent().toStringUtf8(), where);
        return ClusterEntryDescriptor.reply(new Reply(STATUS_STORED, answer, 0, ""));
    }

    /**
     * Answers a member that repairs its log ({@link LogRepair#request}) with the records this node's log holds; a
     * stale read, since any member's log holds the same bytes for what it has.
     */
    Message answerStale(final Message request)
    {
        return LogRepair.answer(log, where.topic(), where.partition(), request);
    }
}
