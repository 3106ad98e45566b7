package io.spool.wire.kafka;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.locks.LockSupport;

/**
 * A share consumer in a child JVM, for the test that kills one mid-batch: {@code bootstrap group topic}. It polls
 * until it has a batch, prints {@code acquired N}, and then holds the batch, unacknowledged, until it is killed.
 */
public final class KafkaShareChild
{
    private KafkaShareChild()
    {
    }

    public static void main(final String[] args)
    {
        final Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, args[1]);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG, "explicit");
        final KafkaShareConsumer<byte[], byte[]> consumer = new KafkaShareConsumer<>(props);
        consumer.subscribe(List.of(args[2]));
        ConsumerRecords<byte[], byte[]> batch = ConsumerRecords.empty();
        while (batch.isEmpty())
        {
            batch = consumer.poll(Duration.ofMillis(200));
        }
        System.out.println("acquired " + batch.count());
        System.out.flush();
        while (true)
        {
            LockSupport.parkNanos(1_000_000_000L);
        }
    }
}
