package io.spool.wire.kafka;

import io.spool.api.stream.ConsumerRecord;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicPartition;
import io.spool.testing.SlowTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.spool.wire.kafka.KafkaProduceTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * kcat (librdkafka, the base of the Python, Go and .NET clients) lists metadata, produces, and consumes with and
 * without a group. CI installs it ({@code apt-get install kcat}); so must a developer running these tests.
 */
@SlowTest
class KcatTest
{
    @TempDir
    Path dir;

    @BeforeAll
    static void kcatIsInstalled()
    {
        try
        {
            new ProcessBuilder("kcat", "-V").redirectErrorStream(true).start().waitFor(30, TimeUnit.SECONDS);
        }
        catch (final IOException | InterruptedException ex)
        {
            fail("kcat is not installed; install it (apt-get install kcat) to run the Kafka listener's tests: " +
                ex.getMessage());
        }
    }

    @Test
    void kcatListsMetadataProducesAndConsumesWithAndWithoutAGroup() throws Exception
    {
        try (KafkaFixture kafka = new KafkaFixture(dir))
        {
            kafka.engine.createTopic("lines", TopicConfig.of(2));
            final Result metadata = kcat(kafka, "", "-L");
            assertThat(metadata.output).contains("1 brokers:", "topic \"lines\" with 2 partitions:");

            final Result produced = kcat(kafka, "a:first\nb:second\nc:third\n", "-P", "-t", "lines", "-K", ":",
                "-H", "origin=kcat");
            assertThat(produced.exitCode).as(produced.output).isZero();
            final List<ConsumerRecord> stored = KafkaProduceTest.readAll(kafka.engine, "lines", 2, 3);
            assertThat(stored).extracting(record -> new String(record.value(), StandardCharsets.UTF_8))
                .containsExactlyInAnyOrder("first", "second", "third");
            assertThat(stored).allSatisfy(record -> assertThat(record.headers().get("origin")).isEqualTo(bytes("kcat")));

            kafka.engine.newProducer().send(ProducerRecord.toPartition("lines", 0, bytes("d"), bytes("fourth"))).join();
            final Result consumed = kcat(kafka, "", "-C", "-t", "lines", "-o", "beginning", "-e", "-f", "%k=%s\\n");
            assertThat(consumed.output.lines()).contains("a=first", "b=second", "c=third", "d=fourth");

            final Result grouped = kcat(kafka, "", "-X", "auto.commit.interval.ms=100", "-G", "kcat-group",
                "-o", "beginning", "-e", "-f", "%s\\n", "lines");
            assertThat(grouped.output.lines()).as(grouped.output).contains("first", "second", "third", "fourth");
            KafkaFixture.await("kcat's group committed its offsets", () -> {
                final Map<TopicPartition, Long> lag = kafka.engine.streams().lag("kcat-group");
                return lag.size() == 2 && lag.values().stream().allMatch(value -> value == 0);
            });
        }
    }

    private record Result(int exitCode, String output)
    {
    }

    private static Result kcat(final KafkaFixture kafka, final String input, final String... arguments)
        throws Exception
    {
        final List<String> command = new ArrayList<>(List.of("kcat", "-b", kafka.bootstrap()));
        command.addAll(List.of(arguments));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().close();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            fail("kcat " + String.join(" ", arguments) + " did not finish; it printed:\n" + output);
        }
        return new Result(process.exitValue(), output);
    }
}
