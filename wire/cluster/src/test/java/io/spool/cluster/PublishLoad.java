package io.spool.cluster;

import io.spool.api.stream.ProducerRecord;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Publishes batches of unique values round-robin over a topic's partitions from one thread, at most
 * {@link #IN_FLIGHT} unconfirmed at once, noting each in a {@link PublishHistory}.
 */
final class PublishLoad implements AutoCloseable
{
    private static final int IN_FLIGHT = 8;
    static final int RECORDS_PER_BATCH = 3;
    /** Batch numbers go on from one load to the next, so that the values of a test's loads are all different. */
    private static final AtomicLong BATCH_NUMBERS = new AtomicLong();

    /** Sends a batch to a partition: a {@link ClusterProducer}, or a native client through a node. */
    @FunctionalInterface
    interface Sender
    {
        CompletableFuture<ClusterProducer.Confirm> send(String topic, int partition, List<ProducerRecord> records);
    }

    private final Sender producer;
    private final String topic;
    private final int partitions;
    private final PublishHistory history;
    private final Semaphore inFlight = new Semaphore(IN_FLIGHT);
    private final Thread thread;
    private final long batches;
    private volatile boolean running = true;
    /** Appended to every value sent from now on, to fill a disk sooner; empty by default. */
    private volatile String padding = "";

    PublishLoad(final Sender producer, final String topic, final int partitions,
        final PublishHistory history)
    {
        this(producer, topic, partitions, history, Long.MAX_VALUE);
    }

    /** A load that stops after {@code batches} batches, for a consumer slower than publishing to keep up with. */
    PublishLoad(final Sender producer, final String topic, final int partitions,
        final PublishHistory history, final long batches)
    {
        this.batches = batches;
        this.producer = producer;
        this.topic = topic;
        this.partitions = partitions;
        this.history = history;
        this.thread = new Thread(this::run, "publish-load");
        thread.start();
    }

    private void run()
    {
        try
        {
            for (long sent = 0; running && sent < batches; sent++)
            {
                inFlight.acquire();
                final long batchNumber = BATCH_NUMBERS.getAndIncrement();
                final int partition = (int)(batchNumber % partitions);
                final List<String> values = new ArrayList<>();
                final List<ProducerRecord> records = new ArrayList<>();
                for (int i = 0; i < RECORDS_PER_BATCH; i++)
                {
                    final String value = "p" + partition + "-" + batchNumber + "-" + i + padding;
                    values.add(value);
                    records.add(ProducerRecord.toPartition(topic, partition, null, value.getBytes(UTF_8)));
                }
                final Object batch = history.sent(partition, values);
                producer.send(topic, partition, records).whenComplete((confirm, failure) ->
                {
                    if (failure == null)
                    {
                        history.confirmed(batch, confirm);
                    }
                    else
                    {
                        history.failed(batch);
                    }
                    inFlight.release();
                });
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** Makes every value sent from now on {@code bytes} longer (0: as short as it was). */
    void pad(final int bytes)
    {
        padding = ".".repeat(bytes);
    }

    /** Stops sending and waits for every batch sent to have its outcome. */
    @Override
    public void close() throws InterruptedException
    {
        running = false;
        thread.interrupt(); // it may wait for a window slot that only an answer frees
        thread.join();
        if (!inFlight.tryAcquire(IN_FLIGHT, 60, TimeUnit.SECONDS))
        {
            throw new AssertionError((IN_FLIGHT - inFlight.availablePermits()) +
                " batches still unanswered a minute after the load stopped");
        }
    }
}
