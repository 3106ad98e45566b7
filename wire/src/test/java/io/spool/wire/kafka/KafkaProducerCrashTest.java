package io.spool.wire.kafka;

import io.spool.Spool;
import io.spool.api.log.LogConfig;
import io.spool.api.stream.ConsumerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.testing.CrashTest;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.spool.wire.kafka.KafkaProduceTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server, in a child JVM, is killed (SIGKILL) again and again while a default (idempotent) KafkaProducer
 * produces: batches stored just before a kill are retried by the producer after it, and the producer state rebuilt
 * from the journal and the log recognises them, so every record is stored once and no retry is refused as out of
 * order. Records large enough that a batch takes several pipeline slots, and small segments that split slots at
 * rolls, make kills land inside a batch, whose retry must then store only what the log does not end with.
 */
@CrashTest
class KafkaProducerCrashTest
{
    private static final int RECORDS = 30_000;
    private static final int KILLS = 6;
    private static final String PADDING = "-" + "x".repeat(120);

    @TempDir
    Path dir;

    @Test
    void aProducerRetryingAcrossServerCrashesStoresEachRecordOnce() throws Exception
    {
        try (Spool setup = Spool.open(dir))
        {
            setup.createTopic("flow", TopicConfig.of(2).withLog(LogConfig.builder().segmentBytes(256 * 1024)
                .maxRecordBytes(16 * 1024).build()));
        }
        Process server = startServer(0);
        final int port = readyPort(server);
        final AtomicInteger acknowledged = new AtomicInteger();
        final ConcurrentLinkedQueue<Exception> failures = new ConcurrentLinkedQueue<>();
        final CompletableFuture<Void> producing = CompletableFuture.runAsync(() -> produce(port, acknowledged,
            failures));
        try
        {
            for (int kill = 1; kill <= KILLS; kill++)
            {
                final int target = kill * RECORDS / (KILLS + 1);
                KafkaFixture.await(target + " records acknowledged", () -> acknowledged.get() >= target);
                server.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                if (kill < KILLS)
                {
                    server = startServer(port);
                    readyPort(server);
                }
            }
        }
        finally
        {
            server.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        try (Spool engine = Spool.open(dir);
             KafkaListener listener = KafkaListener.start(engine, KafkaListenerConfig.builder().port(port).build()))
        {
            producing.get(120, TimeUnit.SECONDS);
            assertThat(failures).as("no retry is refused").isEmpty();
            assertThat(acknowledged).hasValue(RECORDS);
            assertThat(engine.streams().describeTopic("flow").partitions().stream()
                .mapToLong(partition -> partition.endOffset()).sum()).as("records stored").isEqualTo(RECORDS);
            final List<ConsumerRecord> stored = KafkaProduceTest.readAll(engine, "flow", 2, RECORDS);
            assertThat(stored.stream().map(record -> new String(record.value(), StandardCharsets.UTF_8)).distinct())
                .hasSize(RECORDS);
        }
    }

    private static void produce(final int port, final AtomicInteger acknowledged,
        final ConcurrentLinkedQueue<Exception> failures)
    {
        final Map<String, Object> settings = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + port,
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, org.apache.kafka.common.serialization.ByteArraySerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
            org.apache.kafka.common.serialization.ByteArraySerializer.class,
            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000,
            ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 100, ProducerConfig.RETRY_BACKOFF_MAX_MS_CONFIG, 100);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(settings))
        {
            for (int i = 0; i < RECORDS; i++)
            {
                final byte[] value = bytes("r" + i + PADDING);
                producer.send(new ProducerRecord<>("flow", bytes("k" + i), value), (metadata, failure) ->
                {
                    if (failure != null)
                    {
                        failures.add(failure);
                    }
                    else
                    {
                        acknowledged.incrementAndGet();
                    }
                });
            }
            producer.flush();
        }
    }

    private Process startServer(final int port) throws Exception
    {
        return new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), KafkaServerChild.class.getName(), dir.toString(),
            Integer.toString(port)).redirectErrorStream(true).start();
    }

    /** Waits for the child's ready line, then drains its output so it never blocks writing. */
    private static int readyPort(final Process server) throws Exception
    {
        final BufferedReader output = new BufferedReader(new InputStreamReader(server.getInputStream(),
            StandardCharsets.UTF_8));
        String line;
        while ((line = output.readLine()) != null && !line.startsWith("ready "))
        {
            continue;
        }
        assertThat(line).as("the server child started").isNotNull();
        final Thread drain = new Thread(() -> output.lines().forEach(ignored -> { }));
        drain.setDaemon(true);
        drain.start();
        return Integer.parseInt(line.substring("ready ".length()));
    }
}
