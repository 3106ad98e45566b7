package io.spool.stream;

import io.spool.api.stream.ConsumerRecord;
import io.spool.api.stream.TopicPartition;
import io.spool.testing.CrashTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static io.spool.stream.EngineFixture.awaitCondition;
import static io.spool.stream.EngineFixture.text;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A child JVM publishing and committing is killed with SIGKILL; after reopen every confirmed record and every
 * returned commit is there.
 */
@CrashTest
class StreamCrashTest
{
    @TempDir
    Path dir;

    @Test
    void confirmedRecordsAndReturnedCommitsSurviveSigkill() throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(CrashChild.class.getName());
        command.add(dir.toString());
        final Process child = new ProcessBuilder(command).redirectErrorStream(true).start();

        final AtomicLong lastPublished = new AtomicLong(-1);
        final AtomicLong lastCommitted = new AtomicLong(-1);
        final StringBuilder unexpected = new StringBuilder();
        final Thread reader = new Thread(() -> readLines(child, lastPublished, lastCommitted, unexpected));
        reader.start();
        try
        {
            awaitCondition("the child committed 300 times", () -> lastCommitted.get() >= 300 || !child.isAlive());
            assertThat(child.isAlive()).as("child output: %s", unexpected).isTrue();
        }
        finally
        {
            child.destroyForcibly();
            assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
            reader.join();
        }

        try (StreamEngine engine = new EngineFixture(dir).open())
        {
            final TopicPartition partition = new TopicPartition("crash", 0);
            assertThat(engine.groups().committed("survivors", partition)).isGreaterThanOrEqualTo(lastCommitted.get());
            assertThat(engine.describeTopic("crash").partitions().get(0).endOffset())
                .isGreaterThan(lastPublished.get());
            try (StreamConsumer consumer = engine.newConsumer(ConsumerConfig.standalone()))
            {
                consumer.assign(List.of(partition));
                consumer.seek(partition, lastPublished.get());
                final ConsumerRecord last = consumer.poll(1, 1 << 20, EngineFixture.NO_WAIT).get(0);
                assertThat(text(last.value())).isEqualTo("record-" + lastPublished.get());
            }
        }
    }

    private static void readLines(final Process child, final AtomicLong lastPublished, final AtomicLong lastCommitted,
        final StringBuilder unexpected)
    {
        try (BufferedReader lines = new BufferedReader(
            new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8)))
        {
            String line;
            while ((line = lines.readLine()) != null)
            {
                if (line.startsWith("published "))
                {
                    lastPublished.set(Long.parseLong(line.substring("published ".length())));
                }
                else if (line.startsWith("committed "))
                {
                    lastCommitted.set(Long.parseLong(line.substring("committed ".length())));
                }
                else if (unexpected.length() < 4000)
                {
                    unexpected.append(line).append('\n');
                }
            }
        }
        catch (final IOException ex)
        {
            unexpected.append(ex);
        }
    }
}
