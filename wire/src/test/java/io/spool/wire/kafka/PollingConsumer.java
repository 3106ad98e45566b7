package io.spool.wire.kafka;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A KafkaConsumer in a group, polling on its own thread and committing after every poll that returned records;
 * the test reads what it owns and what it received. {@link #close()} leaves the group.
 */
final class PollingConsumer implements AutoCloseable
{
    /** Settings of a group mode: the classic protocol with an assignor, or the consumer protocol. */
    static Map<String, Object> groupSettings(final String group, final String mode)
    {
        final Map<String, Object> settings = new HashMap<>();
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        switch (mode)
        {
            case "consumer" -> settings.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer");
            case "cooperative-sticky" -> settings.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
                "org.apache.kafka.clients.consumer.CooperativeStickyAssignor");
            case "range" -> settings.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
                "org.apache.kafka.clients.consumer.RangeAssignor");
            default -> throw new IllegalArgumentException(mode);
        }
        if (!mode.equals("consumer"))
        {
            settings.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 3_000);
            settings.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 300);
        }
        return settings;
    }

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Thread thread;
    private final Set<String> values = ConcurrentHashMap.newKeySet();
    private volatile Set<TopicPartition> owned = Set.of();
    private volatile boolean running = true;
    private volatile Throwable failure;

    PollingConsumer(final KafkaFixture kafka, final Map<String, Object> settings, final String topic)
    {
        this.consumer = kafka.consumer(settings);
        this.thread = new Thread(() -> run(topic), "polling-consumer");
        thread.setDaemon(true);
        thread.start();
    }

    private void run(final String topic)
    {
        try
        {
            consumer.subscribe(List.of(topic));
            while (running)
            {
                final var records = consumer.poll(Duration.ofMillis(100));
                owned = Set.copyOf(consumer.assignment());
                for (final ConsumerRecord<byte[], byte[]> record : records)
                {
                    values.add(new String(record.value(), StandardCharsets.UTF_8));
                }
                if (!records.isEmpty())
                {
                    try
                    {
                        consumer.commitSync();
                    }
                    catch (final org.apache.kafka.common.errors.RebalanceInProgressException |
                        org.apache.kafka.clients.consumer.CommitFailedException ex)
                    {
                        // A rebalance took the partitions away; the next owner reads them from the last commit.
                    }
                }
            }
        }
        catch (final WakeupException ex)
        {
            // closing
        }
        catch (final Throwable ex)
        {
            failure = ex;
        }
        finally
        {
            consumer.close();
        }
    }

    Set<TopicPartition> owned()
    {
        if (failure != null)
        {
            throw new AssertionError("the consumer failed", failure);
        }
        return owned;
    }

    Set<String> values()
    {
        return values;
    }

    @Override
    public void close()
    {
        running = false;
        consumer.wakeup();
        try
        {
            thread.join(30_000);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
