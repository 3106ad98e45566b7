package io.spool.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.spool.api.log.HeadersCodec;
import io.spool.api.log.RecordView;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.PublishResult;
import io.spool.api.stream.TopicPartition;
import io.spool.log.LogReader;
import io.spool.log.PartitionLog;
import io.spool.stream.StreamProducer;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.server.RaftServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Brings a member's Spool log of a partition up to the end a loaded snapshot holds, when the log lacks records the
 * trimmed Raft log no longer has (it lost an unforced tail, recovery cut it after damage, or the leader installed
 * its snapshot on a member that was behind): the missing records are read from the other members' logs, byte for
 * byte as they stored them, through a stale read of their state machines ({@link #answer}), and stored here in
 * order.
 * <p>
 * A member answers with what its own log holds, so a member that lags is skipped for one that has the records; while
 * none has them (they are starting too) the repair asks again, and the group's later publishes wait for it.
 * Thread-safe: each repair runs on a thread of its own.
 */
final class LogRepair
{
    private static final Logger LOGGER = LoggerFactory.getLogger(LogRepair.class);
    /** Records per answer are bounded by bytes, so an answer fits a Raft message. */
    static final int MAX_ANSWER_BYTES = RaftSettings.MAX_ENTRY_BYTES;
    private static final Duration RETRY = Duration.ofMillis(200);
    private static final int WARN_EVERY_ROUNDS = 50;

    private LogRepair()
    {
    }

    /**
     * Starts storing the records {@code [from, to)} of the partition, read from the other members of the group.
     *
     * @return completes once they are stored, in order; fails if a member's records land at other offsets.
     * Completing it from outside stops the repair after the records it is storing.
     */
    static CompletableFuture<Void> start(final RaftServer server, final RaftGroupId groupId,
        final TopicPartition where, final StreamProducer producer, final long from, final long to)
    {
        final String topic = where.topic();
        final int partition = where.partition();
        LOGGER.warn("{}-{}: this node's log ends at {} but the group's snapshot holds records up to {}, and the " +
            "Raft log no longer has them; fetching them from the other members", topic, partition, from, to);
        final CompletableFuture<Void> repaired = new CompletableFuture<>();
        final Thread thread = new Thread(() ->
        {
            try
            {
                fetch(server, groupId, topic, partition, producer, from, to, repaired);
                if (repaired.complete(null))
                {
                    LOGGER.info("{}-{}: stored the {} records [{}, {}) from the other members", topic, partition,
                        to - from, from, to);
                }
            }
            catch (final Exception | Error ex)
            {
                LOGGER.error("{}-{}: fetching records [{}, {}) from the other members failed", topic, partition,
                    from, to, ex);
                repaired.completeExceptionally(ex);
            }
        }, "spool-log-repair-" + topic + "-" + partition);
        thread.setDaemon(true);
        thread.start();
        return repaired;
    }

    private static void fetch(final RaftServer server, final RaftGroupId groupId, final String topic,
        final int partition, final StreamProducer producer, final long from, final long to,
        final CompletableFuture<Void> stopped) throws InterruptedException, ExecutionException
    {
        final RaftGroup group = groupOf(server, groupId, stopped);
        if (group == null)
        {
            return;
        }
        long next = from;
        int rounds = 0;
        try (RaftClient client = RaftClient.newBuilder()
            .setProperties(RaftSettings.client())
            .setRaftGroup(group)
            .setClientId(ClientId.randomId())
            .setRetryPolicy(RetryPolicies.noRetry())
            .build())
        {
            while (next < to && !stopped.isDone())
            {
                final List<ProducerRecord> records = askEachMember(client, group, server, topic, partition, next, to);
                if (records.isEmpty())
                {
                    if (++rounds % WARN_EVERY_ROUNDS == 0)
                    {
                        LOGGER.warn("{}-{}: no other member holds records from offset {} yet; asking again",
                            topic, partition, next);
                    }
                    Thread.sleep(RETRY.toMillis());
                    continue;
                }
                final List<PublishResult> stored = producer.sendBatch(records).get();
                if (stored.get(0).offset() != next)
                {
                    throw new IllegalStateException(topic + "-" + partition + " stored fetched records at offset " +
                        stored.get(0).offset() + " instead of " + next + ": this node's log was written around the " +
                        "cluster");
                }
                next += records.size();
            }
        }
        catch (final IOException closing)
        {
            throw new ExecutionException("closing the repair's client", closing);
        }
    }

    /**
     * The group once the server holds it with its members, or null when the repair was stopped before. A member
     * that has just been sent a snapshot holds the group before it has read the group's configuration, with no
     * members yet.
     */
    private static RaftGroup groupOf(final RaftServer server, final RaftGroupId groupId,
        final CompletableFuture<Void> stopped) throws InterruptedException
    {
        while (!stopped.isDone())
        {
            try
            {
                final RaftGroup group = server.getDivision(groupId).getGroup();
                if (group.getPeers().size() > 1)
                {
                    return group;
                }
            }
            catch (final IOException starting)
            {
                LOGGER.debug("group {} is still being added to the server", groupId, starting);
            }
            Thread.sleep(RETRY.toMillis());
        }
        return null;
    }

    private static List<ProducerRecord> askEachMember(final RaftClient client, final RaftGroup group,
        final RaftServer server, final String topic, final int partition, final long next, final long to)
    {
        for (final RaftPeer peer : group.getPeers())
        {
            if (peer.getId().equals(server.getId()))
            {
                continue;
            }
            try
            {
                final RaftClientReply reply = client.io().sendStaleRead(request(next, to), 0, peer.getId());
                if (reply.isSuccess())
                {
                    final List<ProducerRecord> records = ClusterEntryDescriptor.decodePublish(topic, partition,
                        reply.getMessage().getContent()).records();
                    if (!records.isEmpty())
                    {
                        return records;
                    }
                }
            }
            catch (final IOException unreachable)
            {
                LOGGER.debug("{}-{}: member {} did not answer for offset {}", topic, partition, peer.getId(), next,
                    unreachable);
            }
        }
        return List.of();
    }

    /** Asks a member for the records {@code [from, to)} its log holds, as many as fit one answer. */
    static Message request(final long from, final long to)
    {
        final ByteBuf out = Unpooled.buffer(2 * Long.BYTES);
        out.writeLongLE(from);
        out.writeLongLE(to);
        return ClusterEntryDescriptor.toMessage(out);
    }

    /**
     * A member's answer to a {@link #request}: the records of its log from the asked offset on, below the asked end
     * and below {@link #MAX_ANSWER_BYTES}, as a PUBLISH entry's records (none when its log does not reach the
     * offset).
     */
    static Message answer(final PartitionLog log, final String topic, final int partition, final Message request)
    {
        final ByteBuf in = Unpooled.wrappedBuffer(request.getContent().asReadOnlyByteBuffer());
        final long from = in.readLongLE();
        final long to = Math.min(in.readLongLE(), log.endOffset());
        final List<ProducerRecord> records = new ArrayList<>();
        if (from >= log.startOffset() && from < to)
        {
            try (LogReader reader = log.newReader())
            {
                reader.seek(from);
                long bytes = 0;
                RecordView record;
                while (reader.nextOffset() < to && (record = reader.next()) != null &&
                    (records.isEmpty() || bytes + record.frameLength() <= MAX_ANSWER_BYTES))
                {
                    bytes += record.frameLength();
                    records.add(new ProducerRecord(topic, partition, record.timestamp(), record.keyBytes(),
                        headersOf(record), record.valueBytes()));
                }
            }
        }
        return ClusterEntryDescriptor.publish(0, 0, records);
    }

    private static Map<String, byte[]> headersOf(final RecordView record)
    {
        return record.headersLength() <= 0 ? Map.of() :
            HeadersCodec.decode(record.buffer(), record.headersOffset(), record.headersLength());
    }
}
