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

class QueueBenchTest
{
    @TempDir
    Path dir;

    @Test
    void everyConfigurationDrainsEveryRecordBesideTheStreamBaseline() throws Exception
    {
        final StringWriter progress = new StringWriter();
        final List<BenchRun> results = QueueBench.run(dir, 500, 100, 2, new int[]{1, 2}, new int[]{1, 50},
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
}
