package io.spool.perf.bench;

import io.spool.perf.report.BenchResult;
import io.spool.perf.report.BenchRun;
import io.spool.testing.SlowTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

@SlowTest
class QueueBenchTest
{
    @TempDir
    Path dir;

    @Test
    void everyConfigurationDrainsEveryRecordBesideTheStreamBaseline() throws Exception
    {
        final StringWriter progress = new StringWriter();
        final List<BenchRun> results = QueueBench.run(dir, 500, 100, 2, new int[]{1, 2}, new int[]{1, 50}, 0, 0, 0,
            new PrintWriter(progress));
        assertThat(results).hasSize(4);
        for (final BenchResult result : results.stream().map(BenchRun::result).toList())
        {
            assertThat(result.measured().records()).isEqualTo(500);
            assertThat(result.baseline().records()).isEqualTo(500);
            assertThat(result.latencyPercentiles().samples()).isEqualTo(100);
        }
        assertThat(results.get(3).result().benchmark()).contains("2 consumer(s), prefetch 50");
        try (var left = Files.list(dir))
        {
            assertThat(left).as("the scratch directory is removed").isEmpty();
        }
    }

    @Test
    void featuresSetGroupsAndDelaysBesidePlainReceiveAndAck() throws Exception
    {
        final List<BenchRun> results = QueueFeaturesBench.run(dir, 2_000, 100, 2,
            new PrintWriter(new StringWriter()));
        assertThat(results).hasSize(2);
        assertThat(results.get(0).result().benchmark()).contains("ordered groups");
        assertThat(results.get(1).result().benchmark()).contains("delayed");
        for (final BenchResult result : results.stream().map(BenchRun::result).toList())
        {
            assertThat(result.measured().records()).isEqualTo(2_000);
            assertThat(result.baseline().name()).startsWith("plain receive + ack");
            assertThat(result.latencyPercentiles().samples()).isPositive();
        }
        try (var left = Files.list(dir))
        {
            assertThat(left).as("the scratch directory is removed").isEmpty();
        }
    }
}
