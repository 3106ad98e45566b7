package io.spool.wire.kafka;

import io.spool.api.log.OffsetOutOfRangeException;
import io.spool.log.PartitionLog;
import io.spool.stream.StreamEngine;
import io.spool.stream.Topic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.message.ListOffsetsResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.requests.ListOffsetsRequest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Fetch and ListOffsets. A fetch reads each partition from its offset into uncompressed record batches; when
 * fewer than {@code fetch.min.bytes} are there it waits, up to {@code fetch.max.wait.ms}, for a commit to one of
 * its partitions. Fetch sessions (KIP-227) are declined: every answer carries session id 0, so clients send full
 * requests. Runs on the connection's event loop.
 */
final class FetchApi
{
    private final StreamEngine streams;
    private final TopicIds topicIds;
    private final PartitionLeaders leaders;
    private final Map<KafkaConnection, PartitionReaders> readers = new ConcurrentHashMap<>();
    private final Map<PartitionLog, FetchWaiters> waiters = new ConcurrentHashMap<>();

    FetchApi(final StreamEngine streams, final TopicIds topicIds, final PartitionLeaders leaders)
    {
        this.streams = streams;
        this.topicIds = topicIds;
        this.leaders = leaders;
    }

    void fetch(final KafkaRequest request)
    {
        final FetchRequestData body = request.body();
        if (body.sessionId() != 0)
        {
            request.respond(new FetchResponseData().setErrorCode(Errors.FETCH_SESSION_ID_NOT_FOUND.code()));
            return;
        }
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(0, body.maxWaitMs()));
        attempt(request, deadline, false);
    }

    private void attempt(final KafkaRequest request, final long deadline, final boolean last)
    {
        final FetchRequestData body = request.body();
        final Read read = read(request);
        final boolean expired = last || System.nanoTime() - deadline >= 0;
        if (read.bytes >= body.minBytes() || read.failed || expired || read.logs.isEmpty())
        {
            request.respond(read.response);
            return;
        }
        new ParkedFetch(request, deadline, read.logs, read.ends).park();
    }

    private Read read(final KafkaRequest request)
    {
        final FetchRequestData body = request.body();
        final PartitionReaders partitionReaders = readers.computeIfAbsent(request.connection(), c -> new PartitionReaders());
        final FetchResponseData response = new FetchResponseData().setSessionId(0);
        final Read read = new Read(response);
        int remaining = body.maxBytes() <= 0 ? Integer.MAX_VALUE : body.maxBytes();
        for (final FetchRequestData.FetchTopic wanted : body.topics())
        {
            final boolean byId = request.version() >= 13;
            final String name = byId ? topicIds.nameOf(wanted.topicId()) : wanted.topic();
            final FetchResponseData.FetchableTopicResponse topicResponse = new FetchResponseData.FetchableTopicResponse()
                .setTopic(byId ? "" : name).setTopicId(byId ? wanted.topicId() : Uuid.ZERO_UUID);
            response.responses().add(topicResponse);
            final Topic topic = name == null ? null : streams.topics().topicOrNull(name);
            for (final FetchRequestData.FetchPartition partition : wanted.partitions())
            {
                final FetchResponseData.PartitionData out = new FetchResponseData.PartitionData()
                    .setPartitionIndex(partition.partition()).setRecords(MemoryRecords.EMPTY);
                topicResponse.partitions().add(out);
                if (topic == null || partition.partition() < 0 || partition.partition() >= topic.partitionCount())
                {
                    out.setErrorCode((byId && topic == null ? Errors.UNKNOWN_TOPIC_ID :
                        Errors.UNKNOWN_TOPIC_OR_PARTITION).code());
                    read.failed = true;
                    continue;
                }
                final KafkaCluster.Placement placement = leaders.placement(name, partition.partition());
                if (!placement.ledHere())
                {
                    out.setErrorCode(Errors.NOT_LEADER_OR_FOLLOWER.code());
                    LeaderHints.fetch(leaders, placement, request.version(), out, response);
                    read.failed = true;
                    continue;
                }
                final PartitionLog log = topic.partition(partition.partition());
                // only committed records are in a cluster node's log, so its end is the high watermark
                final long end = log.endOffset();
                out.setHighWatermark(end).setLastStableOffset(end).setLogStartOffset(log.startOffset());
                final long offset = partition.fetchOffset();
                if (offset < log.startOffset() || offset > end)
                {
                    out.setErrorCode(Errors.OFFSET_OUT_OF_RANGE.code());
                    read.failed = true;
                    continue;
                }
                read.logs.add(log);
                read.ends.add(end);
                if (offset == end || remaining <= 0)
                {
                    continue;
                }
                try
                {
                    final MemoryRecords records = partitionReaders.read(log, offset,
                        Math.min(remaining, Math.max(1, partition.partitionMaxBytes())), read.bytes == 0);
                    out.setRecords(records);
                    read.bytes += records.sizeInBytes();
                    remaining -= records.sizeInBytes();
                }
                catch (final OffsetOutOfRangeException ex)
                {
                    out.setErrorCode(Errors.OFFSET_OUT_OF_RANGE.code());
                    read.failed = true;
                }
            }
        }
        return read;
    }

    void listOffsets(final KafkaRequest request)
    {
        final ListOffsetsRequestData body = request.body();
        final ListOffsetsResponseData response = new ListOffsetsResponseData();
        for (final ListOffsetsRequestData.ListOffsetsTopic wanted : body.topics())
        {
            final ListOffsetsResponseData.ListOffsetsTopicResponse topicResponse =
                new ListOffsetsResponseData.ListOffsetsTopicResponse().setName(wanted.name());
            response.topics().add(topicResponse);
            final Topic topic = streams.topics().topicOrNull(wanted.name());
            for (final ListOffsetsRequestData.ListOffsetsPartition partition : wanted.partitions())
            {
                final ListOffsetsResponseData.ListOffsetsPartitionResponse out =
                    new ListOffsetsResponseData.ListOffsetsPartitionResponse()
                        .setPartitionIndex(partition.partitionIndex()).setTimestamp(-1).setOffset(-1)
                        .setLeaderEpoch(-1);
                topicResponse.partitions().add(out);
                if (topic == null || partition.partitionIndex() < 0 ||
                    partition.partitionIndex() >= topic.partitionCount())
                {
                    out.setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
                    continue;
                }
                final KafkaCluster.Placement placement = leaders.placement(wanted.name(), partition.partitionIndex());
                if (!placement.ledHere())
                {
                    out.setErrorCode(Errors.NOT_LEADER_OR_FOLLOWER.code());
                    continue;
                }
                if (request.version() >= 4)
                {
                    out.setLeaderEpoch(placement.leaderEpoch());
                }
                offsetFor(topic.partition(partition.partitionIndex()), partition.timestamp(), out);
            }
        }
        request.respond(response);
    }

    private static void offsetFor(final PartitionLog log, final long timestamp,
        final ListOffsetsResponseData.ListOffsetsPartitionResponse out)
    {
        if (timestamp == ListOffsetsRequest.LATEST_TIMESTAMP || timestamp == ListOffsetsRequest.LATEST_TIERED_TIMESTAMP)
        {
            out.setOffset(log.endOffset());
        }
        else if (timestamp == ListOffsetsRequest.EARLIEST_TIMESTAMP ||
            timestamp == ListOffsetsRequest.EARLIEST_LOCAL_TIMESTAMP ||
            timestamp == ListOffsetsRequest.EARLIEST_PENDING_UPLOAD_TIMESTAMP)
        {
            out.setOffset(log.startOffset());
        }
        else if (timestamp == ListOffsetsRequest.MAX_TIMESTAMP)
        {
            maxTimestamp(log, out);
        }
        else if (timestamp < 0)
        {
            out.setErrorCode(Errors.INVALID_REQUEST.code());
        }
        else
        {
            final long offset = log.offsetForTimestamp(timestamp);
            if (offset < log.endOffset())
            {
                out.setOffset(offset).setTimestamp(timestampAt(log, offset));
            }
        }
    }

    /** The offset and time of the record with the largest timestamp (the first of them), Kafka's MAX_TIMESTAMP. */
    private static void maxTimestamp(final PartitionLog log, final ListOffsetsResponseData.ListOffsetsPartitionResponse out)
    {
        try (io.spool.log.LogReader reader = log.newReader())
        {
            reader.seek(log.startOffset());
            io.spool.api.log.RecordView view;
            long bestTime = -1;
            long bestOffset = -1;
            while ((view = reader.next()) != null)
            {
                if (view.timestamp() > bestTime)
                {
                    bestTime = view.timestamp();
                    bestOffset = view.offset();
                }
            }
            out.setOffset(bestOffset).setTimestamp(bestTime);
        }
    }

    private static long timestampAt(final PartitionLog log, final long offset)
    {
        try (io.spool.log.LogReader reader = log.newReader())
        {
            reader.seek(offset);
            final io.spool.api.log.RecordView view = reader.next();
            return view == null ? -1 : view.timestamp();
        }
    }

    void connectionClosed(final KafkaConnection connection)
    {
        final PartitionReaders closed = readers.remove(connection);
        if (closed != null)
        {
            connection.channel().eventLoop().execute(closed::close);
        }
    }

    private FetchWaiters waitersOf(final PartitionLog log)
    {
        return waiters.computeIfAbsent(log, l ->
        {
            final FetchWaiters created = new FetchWaiters();
            l.addCommitListener((committed, end) -> created.wakeAll());
            return created;
        });
    }

    /** What one pass over a fetch's partitions found. */
    private static final class Read
    {
        final FetchResponseData response;
        final List<PartitionLog> logs = new ArrayList<>();
        final List<Long> ends = new ArrayList<>();
        int bytes;
        boolean failed;

        Read(final FetchResponseData response)
        {
            this.response = response;
        }
    }

    /** The fetches waiting for a commit to one log. Thread-safe. */
    private static final class FetchWaiters
    {
        private final java.util.Set<ParkedFetch> parked = ConcurrentHashMap.newKeySet();

        void wakeAll()
        {
            if (!parked.isEmpty())
            {
                for (final ParkedFetch fetch : parked)
                {
                    fetch.wake();
                }
            }
        }
    }

    /** A fetch waiting for data or its deadline, whichever comes first; answered once, on its event loop. */
    private final class ParkedFetch
    {
        private final KafkaRequest request;
        private final long deadline;
        private final List<PartitionLog> logs;
        private final List<Long> endsRead;
        private final java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        private ScheduledFuture<?> timeout;

        ParkedFetch(final KafkaRequest request, final long deadline, final List<PartitionLog> logs,
            final List<Long> endsRead)
        {
            this.request = request;
            this.deadline = deadline;
            this.logs = logs;
            this.endsRead = endsRead;
        }

        void park()
        {
            for (final PartitionLog log : logs)
            {
                waitersOf(log).parked.add(this);
            }
            timeout = request.connection().channel().eventLoop().schedule(() -> finish(true),
                Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            // A commit between the read and the registration above would otherwise go unseen until the deadline.
            for (int i = 0; i < logs.size(); i++)
            {
                if (logs.get(i).endOffset() != endsRead.get(i))
                {
                    wake();
                    return;
                }
            }
        }

        void wake()
        {
            if (!done.get())
            {
                request.connection().channel().eventLoop().execute(() -> finish(false));
            }
        }

        private void finish(final boolean last)
        {
            if (!done.compareAndSet(false, true))
            {
                return;
            }
            for (final PartitionLog log : logs)
            {
                waitersOf(log).parked.remove(this);
            }
            if (timeout != null)
            {
                timeout.cancel(false);
            }
            if (!request.connection().channel().isActive())
            {
                request.completeSilently();
                return;
            }
            attempt(request, deadline, last);
        }
    }
}
