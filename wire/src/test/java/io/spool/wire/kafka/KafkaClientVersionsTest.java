package io.spool.wire.kafka;

import io.spool.api.stream.TopicConfig;
import io.spool.testing.SlowTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * kafka-clients 3.9 (in a child JVM, its jar in place of 4.x) produces and consumes in a group through the
 * listener, as 4.x does in the other tests: the versions ApiVersions advertises suit both lines.
 */
@SlowTest
class KafkaClientVersionsTest
{
    private static final Path PREVIOUS_CLIENTS = Path.of("target", "previous-kafka-clients");

    @TempDir
    Path dir;

    @Test
    void kafkaClients39ProducesAndConsumesInAGroup() throws Exception
    {
        try (KafkaFixture kafka = new KafkaFixture(dir))
        {
            kafka.engine.createTopic("legacy", TopicConfig.of(2));
            final Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", previousClientClassPath(), KafkaClientChild.class.getName(), kafka.bootstrap(), "legacy", "500")
                .redirectErrorStream(true).start();
            final String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(child.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(output).contains("kafka-clients-3.9.").contains("produced 500 consumed 500");
            assertThat(kafka.engine.streams().lag("child-legacy").values()).containsOnly(0L);
        }
    }

    /** This JVM's class path with kafka-clients 3.9 in place of every Kafka jar. */
    private static String previousClientClassPath() throws IOException
    {
        final List<String> entries = new ArrayList<>();
        for (final String entry : System.getProperty("java.class.path").split(File.pathSeparator))
        {
            if (!entry.contains(File.separator + "org" + File.separator + "apache" + File.separator + "kafka" +
                File.separator))
            {
                entries.add(entry);
            }
        }
        try (Stream<Path> jars = Files.list(PREVIOUS_CLIENTS))
        {
            jars.filter(jar -> jar.getFileName().toString().startsWith("kafka-clients-3.9"))
                .forEach(jar -> entries.add(jar.toAbsolutePath().toString()));
        }
        return String.join(File.pathSeparator, entries);
    }
}
