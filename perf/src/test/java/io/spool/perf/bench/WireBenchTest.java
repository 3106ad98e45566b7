package io.spool.perf.bench;

import io.spool.perf.report.BenchResult;
import io.spool.perf.report.BenchRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WireBenchTest
{
    @TempDir
    Path dir;

    @Test
    void publishAndConsumeAreCountedOverTheMeasuredRoundsBesideTheEmbeddedEngine() throws Exception
    {
        final StringWriter progress = new StringWriter();
        final List<BenchRun> runs = WireBench.run(new WireBench.Settings(dir, 3_000, 100, 16 * 1024, 2, 1),
            new PrintWriter(progress));

        assertThat(runs).hasSize(2);
        final BenchResult publish = runs.get(0).result();
        assertThat(publish.benchmark()).isEqualTo("wire publish (1 connection, batches of 16 KiB)");
        assertThat(publish.measured().records()).isEqualTo(2 * 3_000);
        assertThat(publish.baseline().records()).isEqualTo(2 * 3_000);
        assertThat(publish.latencyPercentiles().samples()).as("one record in 64 of each measured round")
            .isEqualTo(2 * 47);
        final BenchResult consume = runs.get(1).result();
        assertThat(consume.measured().records()).isEqualTo(2 * 3_000);
        assertThat(consume.latencyPercentiles().samples()).isPositive();
        for (final BenchRun run : runs)
        {
            assertThat(run.throughput()).hasSize(2).allSatisfy(series -> assertThat(series.points()).isEqualTo(2));
        }
        assertThat(progress.toString().lines()).hasSize(4).satisfiesExactly(
            line -> assertThat(line).startsWith("bench wire: warm-up round 1 of 1: "),
            line -> assertThat(line).startsWith("bench wire: round 1 of 2: ")
                .containsPattern("CPU [0-9,]+ and [0-9,]+ ns/record"),
            line -> assertThat(line).startsWith("bench wire: round 2 of 2: "),
            line -> assertThat(line)
                .containsPattern("median of the measured rounds: embedded [0-9,]+ ns, remote [0-9,]+ ns"));
        try (var left = Files.list(dir))
        {
            assertThat(left).as("the scratch directory is removed").isEmpty();
        }
    }

    @Test
    void settingsThatCannotRunAreRefused()
    {
        assertThatThrownBy(() -> new WireBench.Settings(dir, 10, 100, 1024, 0, 1))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rounds");
    }
}
