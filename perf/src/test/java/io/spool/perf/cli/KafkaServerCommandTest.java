package io.spool.perf.cli;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code spool server --kafka-port}: stock Kafka clients produce and consume through the server command. */
class KafkaServerCommandTest
{
    private static final Pattern BOOTSTRAP = Pattern.compile("bootstrap\\.servers=(127\\.0\\.0\\.1:\\d+)");
    private static final int RECORDS = 100;

    @TempDir
    Path dataDirectory;

    @Test
    void aKafkaProducerAndConsumerReachTheServersKafkaListener() throws Exception
    {
        final AwaitableWriter out = new AwaitableWriter();
        final Thread server = new Thread(() -> SpoolCommand.newCommandLine().setOut(new PrintWriter(out, true))
            .setErr(new PrintWriter(out, true)).execute("server", "--port", "0", "--kafka-port", "0",
                "--data-dir", dataDirectory.toString()), "spool server");
        server.start();
        try
        {
            final Matcher bootstrap = BOOTSTRAP.matcher(out.awaitContaining("Kafka listener on",
                Duration.ofSeconds(30)));
            assertThat(bootstrap.find()).as(out.toString()).isTrue();
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProperties(bootstrap.group(1))))
            {
                for (int i = 0; i < RECORDS; i++)
                {
                    producer.send(new ProducerRecord<>("cli-orders", "key-" + i, "value-" + i));
                }
                producer.flush();
            }
            assertThat(consumeAll(bootstrap.group(1))).hasSize(RECORDS).first().isEqualTo("key-0=value-0");
        }
        finally
        {
            server.interrupt();
            server.join(30_000);
        }
        assertThat(server.isAlive()).isFalse();
        assertThat(out.toString()).contains("spool server: closed");
    }

    private static Properties producerProperties(final String bootstrap)
    {
        final Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        return props;
    }

    private static List<String> consumeAll(final String bootstrap)
    {
        final Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        final List<String> seen = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props))
        {
            final TopicPartition partition = new TopicPartition("cli-orders", 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (seen.size() < RECORDS && System.nanoTime() < deadline)
            {
                for (final ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200)))
                {
                    seen.add(record.key() + "=" + record.value());
                }
            }
        }
        return seen;
    }
}
