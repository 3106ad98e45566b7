package io.spool.wire.client;

import io.netty.buffer.ByteBuf;
import io.spool.api.log.HeadersCodec;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicPartition;
import io.spool.wire.ConnectionLostException;
import io.spool.wire.PublishDescriptor;
import io.spool.wire.SequencedPublishDescriptor;
import io.spool.wire.ServerUnreachableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * Publishes to a cluster's replicated topics over the native protocol, through any node's native server, and keeps
 * publishing when that node dies. The node hands each batch to the partition's Raft group (wherever its leader is)
 * and answers once a majority holds it. Each batch carries this producer's random id and its sequence in the
 * partition ({@code PUBLISH_SEQUENCED}); when the connection is lost, the producer connects to the next node of its
 * list and sends every unconfirmed batch again, in the order first sent, with the same sequences, and the cluster
 * stores each batch once and answers a retry with the offsets it first got.
 * <p>
 * A batch is answered with the offset of each of its records, or fails with the cluster's refusal; a lost connection
 * fails no batch, it is retried until some node of the list answers (bound the wait on the future). The caller bounds
 * how many batches are unconfirmed at once. Thread-safe; batches sent to one partition are stored in the order sent.
 * <p>
 * Design note: unlike {@link RemoteProducer}, each send takes a lock and keeps its records until confirmed, since a
 * batch must be sent again, with its sequence, in the order first sent, on whichever connection comes next; the
 * replicated path this serves pays a consensus round per batch anyway.
 */
public final class FailoverProducer implements AutoCloseable
{
    private static final Logger LOGGER = LoggerFactory.getLogger(FailoverProducer.class);
    private static final SecureRandom IDS = new SecureRandom();
    /** How long the producer waits before it tries the whole list again when no node could be reached. */
    private static final long ROUND_PAUSE_MILLIS = 100;

    private final List<ClientConfig> nodes;
    private final long producerId = IDS.nextLong() & Long.MAX_VALUE;
    private final Object lock = new Object();
    /** Guarded by {@link #lock}, as is everything below. */
    private final Map<TopicPartition, long[]> nextSequences = new HashMap<>();
    /** Batches sent and not yet answered, by the order they were first sent. */
    private final TreeMap<Long, Batch> unconfirmed = new TreeMap<>();
    private long nextOrder;
    private SpoolClient current;
    private int currentNode;
    /** Counts connections made; an answer of an older connection's requests does not start a failover. */
    private long connectionNumber;
    private Thread reconnecting;
    private boolean closed;

    private record Batch(long order, byte[] topicUtf8, int partition, long sequence, List<ProducerRecord> records,
        CompletableFuture<long[]> offsets)
    {
    }

    private FailoverProducer(final List<ClientConfig> nodes)
    {
        this.nodes = List.copyOf(nodes);
    }

    /**
     * Connects to the first node of {@code nodes} that answers.
     *
     * @param nodes the native servers of the cluster's nodes.
     * @throws ServerUnreachableException when none of them answers.
     */
    public static FailoverProducer connect(final List<ClientConfig> nodes)
    {
        if (nodes.isEmpty())
        {
            throw new IllegalArgumentException("a failover producer needs the native server of at least one node");
        }
        final FailoverProducer producer = new FailoverProducer(nodes);
        ConnectionLostException last = null;
        for (int node = 0; node < nodes.size(); node++)
        {
            try
            {
                producer.current = SpoolClient.connect(nodes.get(node));
                producer.currentNode = node;
                producer.connectionNumber = 1;
                return producer;
            }
            catch (final ConnectionLostException unreachable)
            {
                last = unreachable;
            }
        }
        throw new ServerUnreachableException("no node of the " + nodes.size() + " given answered; the last said: " +
            last.getMessage());
    }

    public long producerId()
    {
        return producerId;
    }

    /** How often this producer has lost its node and connected to another. */
    public long failovers()
    {
        synchronized (lock)
        {
            return connectionNumber - 1;
        }
    }

    /**
     * Sends {@code records} as one batch to a partition of a replicated topic (their topic and partition fields are
     * ignored).
     *
     * @return completes with the offset of each record once a majority of the partition's nodes holds them.
     * @throws IllegalStateException when the producer is closed.
     */
    public CompletableFuture<long[]> send(final String topic, final int partition, final List<ProducerRecord> records)
    {
        if (records.isEmpty())
        {
            throw new IllegalArgumentException("a batch holds at least one record");
        }
        final byte[] topicUtf8 = topic.getBytes(StandardCharsets.UTF_8);
        synchronized (lock)
        {
            if (closed)
            {
                throw new IllegalStateException("the failover producer is closed");
            }
            final long[] next = nextSequences.computeIfAbsent(new TopicPartition(topic, partition), p -> new long[1]);
            final Batch batch = new Batch(nextOrder++, topicUtf8, partition, next[0]++, List.copyOf(records),
                new CompletableFuture<>());
            unconfirmed.put(batch.order(), batch);
            if (current != null)
            {
                write(batch);
            }
            return batch.offsets();
        }
    }

    /** Under the lock: sends the batch on the current connection; the answer settles it or starts a failover. */
    private void write(final Batch batch)
    {
        final ClientConnection connection = current.connection();
        final ByteBuf frame = connection.alloc().ioBuffer(256);
        final int countIndex = SequencedPublishDescriptor.beginRequest(frame, 0, producerId, batch.sequence(),
            batch.topicUtf8(), batch.partition());
        for (final ProducerRecord record : batch.records())
        {
            PublishDescriptor.appendRecord(frame, record.timestamp(), 0, record.key(),
                record.headers().isEmpty() ? null : HeadersCodec.encode(record.headers()), record.value());
        }
        PublishDescriptor.finishRequest(frame, countIndex, batch.records().size());
        final long sentOn = connectionNumber;
        connection.send(frame, new ResponseHandler()
        {
            @Override
            public void onResponse(final ByteBuf body)
            {
                final long[] offsets = SequencedPublishDescriptor.decodeResponse(body);
                if (settle(batch))
                {
                    batch.offsets().complete(offsets);
                }
            }

            @Override
            public void onError(final RuntimeException error)
            {
                if (error instanceof ConnectionLostException)
                {
                    connectionLost(sentOn, error);
                }
                else if (settle(batch))
                {
                    batch.offsets().completeExceptionally(error);
                }
            }
        });
    }

    /** Takes the batch off the unconfirmed ones; false when an answer on another connection did so first. */
    private boolean settle(final Batch batch)
    {
        synchronized (lock)
        {
            return unconfirmed.remove(batch.order()) != null;
        }
    }

    private void connectionLost(final long lostConnection, final RuntimeException why)
    {
        synchronized (lock)
        {
            if (closed || lostConnection != connectionNumber || current == null)
            {
                return;
            }
            LOGGER.info("lost node {} ({}); sending {} unconfirmed batches to the next node", nodeName(currentNode),
                why.getMessage(), unconfirmed.size());
            final SpoolClient lost = current;
            current = null;
            // off the connection's event loop, which answered this and which closing it waits for
            reconnecting = new Thread(() -> reconnect(lost), "spool-failover-" + producerId);
            reconnecting.setDaemon(true);
            reconnecting.start();
        }
    }

    /** Connects to the next node that answers, then sends every unconfirmed batch again, oldest first. */
    private void reconnect(final SpoolClient lost)
    {
        lost.close();
        int node;
        synchronized (lock)
        {
            node = currentNode;
        }
        while (true)
        {
            for (int tried = 0; tried < nodes.size(); tried++)
            {
                node = (node + 1) % nodes.size();
                final SpoolClient client;
                try
                {
                    client = SpoolClient.connect(nodes.get(node));
                }
                catch (final ConnectionLostException unreachable)
                {
                    LOGGER.debug("node {} unreachable: {}", nodeName(node), unreachable.getMessage());
                    continue;
                }
                synchronized (lock)
                {
                    if (closed)
                    {
                        client.close();
                        return;
                    }
                    current = client;
                    currentNode = node;
                    connectionNumber++;
                    for (final Batch batch : new ArrayList<>(unconfirmed.values()))
                    {
                        if (current == null)
                        {
                            break; // this connection was lost too, and the next failover sends the rest
                        }
                        write(batch);
                    }
                    return;
                }
            }
            synchronized (lock)
            {
                if (closed)
                {
                    return;
                }
            }
            try
            {
                Thread.sleep(ROUND_PAUSE_MILLIS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private String nodeName(final int node)
    {
        return nodes.get(node).host() + ":" + nodes.get(node).port();
    }

    /**
     * Closes the connection; batches still unconfirmed fail with {@link ConnectionLostException} (each may yet be
     * stored, once). Idempotent.
     */
    @Override
    public void close()
    {
        final SpoolClient open;
        final List<Batch> abandoned;
        final Thread reconnect;
        synchronized (lock)
        {
            if (closed)
            {
                return;
            }
            closed = true;
            open = current;
            current = null;
            abandoned = new ArrayList<>(unconfirmed.values());
            unconfirmed.clear();
            reconnect = reconnecting;
        }
        if (reconnect != null)
        {
            reconnect.interrupt();
        }
        if (open != null)
        {
            open.close();
        }
        final ConnectionLostException error = new ConnectionLostException("the failover producer was closed before " +
            "the batch was confirmed; it may be stored (once)");
        abandoned.forEach(batch -> batch.offsets().completeExceptionally(error));
    }
}
