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

class E2eBenchTest
{
    @TempDir
    Path dir;

    @Test
    void everyRecordIsPolledWithItsLatencyBesideTheRawAppend() throws Exception
    {
        final List<BenchRun> runs = E2eBench.run(dir, 2_000, 3_000, 16, new int[]{1, 3}, E2eBench.UNPACED,
            new PrintWriter(new StringWriter()));

        assertThat(runs).hasSize(2);
        for (final BenchRun run : runs)
        {
            final BenchResult result = run.result();
            assertThat(result.measured().records()).isEqualTo(2_000);
            assertThat(result.baseline().records()).isEqualTo(2 * 3_000);
            assertThat(result.latencyPercentiles().samples()).isEqualTo(2_000);
            assertThat(result.latencyPercentiles().p50Micros()).isPositive();
            assertThat(run.throughput()).hasSize(1);
            assertThat(run.latency().points()).isNotEmpty();
        }
        assertThat(runs.get(1).result().benchmark()).isEqualTo("e2e (3 partition(s))");
        assertThat(runs.get(1).result().partitions()).isEqualTo(3);
        try (var left = Files.list(dir))
        {
            assertThat(left).as("the scratch directories are removed").isEmpty();
        }
    }

    @Test
    void aPacedRunTakesAtLeastTheTimeItsRateSetsAndSaysSo() throws Exception
    {
        final BenchResult result = E2eBench.run(dir, 500, 3_000, 16, new int[]{2}, 10_000,
            new PrintWriter(new StringWriter())).get(0).result();

        assertThat(result.measured().elapsedNanos()).isGreaterThanOrEqualTo(499 * 100_000L);
        assertThat(result.measured().recordsPerSec()).isLessThanOrEqualTo(10_000 * 1.01);
        assertThat(result.latency()).isEqualTo(
            "publish to poll, per record, paced at 10,000 records/s, from the intended send time");
        assertThat(result.latencyPercentiles().samples()).isEqualTo(500);
    }

    @Test
    void aPayloadTooSmallForThePublishTimeIsRefused()
    {
        assertThatThrownBy(() -> E2eBench.run(dir, 10, 10, 7, new int[]{1}, E2eBench.UNPACED,
            new PrintWriter(new StringWriter())))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("payload bytes from 8");
    }
}
