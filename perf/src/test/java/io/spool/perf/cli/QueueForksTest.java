package io.spool.perf.cli;

import io.spool.testing.SlowTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code spool bench queue} runs each configuration in a JVM of its own unless told otherwise. */
@SlowTest
class QueueForksTest
{
    @TempDir
    Path directory;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void eachConfigurationRunsInAChildJvmAndPrintsItsOwnLine()
    {
        final int exit = SpoolCommand.newCommandLine().setOut(new PrintWriter(out, true))
            .setErr(new PrintWriter(err, true))
            .execute("bench", "queue", "--records", "300", "--consumers", "1,2", "--prefetch", "10",
                "--data-dir", directory.toString(), "--json");

        assertThat(exit).as(err.toString()).isZero();
        assertThat(out.toString().lines()).hasSize(2);
        assertThat(out.toString().lines().toList().get(0)).contains("(1 consumer(s), prefetch 10)", "\"ratio\":");
        assertThat(out.toString().lines().toList().get(1)).contains("(2 consumer(s), prefetch 10)", "\"ratio\":");
        assertThat(err.toString()).as("each child's progress is passed on")
            .contains("publishing 300 records for 1 consumer(s), prefetch 10",
                "publishing 300 records for 2 consumer(s), prefetch 10");
    }

    @Test
    void aChildIsThisJvmsCommandWithOneConfigurationRunInPlace()
    {
        final QueueCommand command = new QueueCommand();
        command.records = 1000;
        command.payloadBytes = 100;
        command.partitions = 2;
        command.output = new RunOutputOptions();
        command.output.dataDir = directory;
        command.output.json = true;

        final List<String> arguments = command.configurationArguments(4, 1000);
        assertThat(arguments).containsExactly("bench", "queue", "--no-fork", "--records", "1000",
            "--payload-bytes", "100", "--partitions", "2", "--consumers", "4", "--prefetch", "1000",
            "--data-dir", directory.toString(), "--json");

        final List<String> child = new ConfigurationForks(List.of("java", "-Xmx1g"), null, null).command(arguments);
        assertThat(child).startsWith("java", "-Xmx1g", "bench", "queue", "--no-fork");
        assertThat(ConfigurationForks.ofThisJvm(null, null).command(List.of()))
            .contains("-cp", SpoolCommand.class.getName());
    }
}
