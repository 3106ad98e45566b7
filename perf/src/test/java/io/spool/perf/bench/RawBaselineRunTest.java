package io.spool.perf.bench;

import io.spool.perf.report.Throughput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class RawBaselineRunTest
{
    @TempDir
    Path directory;

    @Test
    void measuresTheAppendAndTheScanOfTheSameRecords()
    {
        try (RawBaselineRun run = new RawBaselineRun(directory, 10_001, new byte[100], 64 * 1024, 256))
        {
            final Throughput append = run.measureAppend();
            final Throughput scan = run.measureScan();

            assertThat(append.name()).isEqualTo(RawBaselineRun.RAW_APPEND);
            assertThat(append.records()).isEqualTo(10_001);
            assertThat(append.valueBytes()).isEqualTo(100);
            assertThat(scan.name()).matches(RawBaselineRun.RAW_SCAN + ", mean of [0-9]+ passes");
            assertThat(scan.records()).isEqualTo(10_001);
            assertThat(scan.recordsPerSec()).isPositive();
        }
    }

    @Test
    void aShortBenchmarkStillGetsABaselineOverEnoughRecordsToBeWarm()
    {
        assertThat(RawBaselineRun.baselineRecords(3_000, 100)).isEqualTo(1_864_136);
        assertThat(RawBaselineRun.baselineRecords(3_000, 1_000_000)).isEqualTo(3_000);
        assertThat(RawBaselineRun.baselineRecords(10_000_000, 100)).isEqualTo(10_000_000);
    }
}
