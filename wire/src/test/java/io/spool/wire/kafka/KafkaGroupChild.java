package io.spool.wire.kafka;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.util.List;
import java.util.Properties;

/**
 * A group member in a child JVM, for tests that kill one: {@code bootstrap group mode topic}. It polls until it is
 * killed and prints {@code assigned N} whenever what it owns changes.
 */
public final class KafkaGroupChild
{
    private KafkaGroupChild()
    {
    }

    public static void main(final String[] args)
    {
        final Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.putAll(PollingConsumer.groupSettings(args[1], args[2]));
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props))
        {
            consumer.subscribe(List.of(args[3]));
            int owned = -1;
            while (true)
            {
                consumer.poll(Duration.ofMillis(100));
                if (consumer.assignment().size() != owned)
                {
                    owned = consumer.assignment().size();
                    System.out.println("assigned " + owned);
                    System.out.flush();
                }
            }
        }
    }
}
