package io.spool.wire.kafka;

import io.spool.Spool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.fail;

/**
 * An engine on a test directory served by a Kafka listener on a free loopback port, with group timings small
 * enough that rebalances and expiries finish quickly, and real Kafka clients pointed at it.
 */
final class KafkaFixture implements AutoCloseable
{
    static final Duration LONG_WAIT = Duration.ofSeconds(60);

    final Path dir;
    final KafkaListenerConfig.Builder settings;
    /** The cluster the listener is a node of, or null for a single node. */
    private final KafkaCluster cluster;
    Spool engine;
    KafkaListener listener;

    KafkaFixture(final Path dir)
    {
        this(dir, KafkaListenerConfig.builder());
    }

    KafkaFixture(final Path dir, final KafkaListenerConfig.Builder settings)
    {
        this(dir, settings, null);
    }

    /** The listener as one node of {@code cluster}. */
    KafkaFixture(final Path dir, final KafkaListenerConfig.Builder settings, final KafkaCluster cluster)
    {
        this.dir = dir;
        this.cluster = cluster;
        this.settings = settings.port(0).sessionTimeoutBounds(100, 300_000).initialRebalanceDelayMillis(0)
            .groupHeartbeatIntervalMillis(200).groupSessionTimeoutMillis(3_000).ioThreads(2);
        start();
    }

    void start()
    {
        engine = Spool.builder(dir).open();
        listener = KafkaListener.start(engine, settings.port(listener == null ? 0 : listener.port()).build(), cluster);
    }

    /** Stops the listener and the engine and starts both again on the same directory and port. */
    void restart()
    {
        listener.close();
        engine.close();
        start();
    }

    String bootstrap()
    {
        return listener.bootstrapServers();
    }

    Properties common()
    {
        final Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        return props;
    }

    KafkaProducer<byte[], byte[]> producer(final Map<String, Object> overrides)
    {
        final Properties props = common();
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.putAll(overrides);
        return new KafkaProducer<>(props);
    }

    KafkaConsumer<byte[], byte[]> consumer(final Map<String, Object> overrides)
    {
        final Properties props = common();
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.putAll(overrides);
        return new KafkaConsumer<>(props);
    }

    Admin admin()
    {
        return Admin.create(common());
    }

    /** Waits, polling, until the condition holds; fails the test after a generous bound. */
    static void await(final String what, final BooleanSupplier condition)
    {
        final long deadline = System.nanoTime() + LONG_WAIT.toNanos();
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadline)
            {
                fail("timed out waiting until " + what);
            }
            LockSupport.parkNanos(1_000_000);
        }
    }

    @Override
    public void close()
    {
        listener.close();
        engine.close();
    }
}
