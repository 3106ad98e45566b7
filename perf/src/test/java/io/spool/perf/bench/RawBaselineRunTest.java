package io.spool.perf.bench;

import io.spool.perf.baseline.RawMappedScanBaseline;
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
    void timesTheAppendAndScansBackWhatItAppended()
    {
        try (RawBaselineRun run = new RawBaselineRun(directory, 10_001, new byte[100], 64 * 1024, 256))
        {
            final Throughput append = run.measureAppend();

            assertThat(append.name()).isEqualTo(RawBaselineRun.RAW_APPEND);
            assertThat(append.records()).isEqualTo(10_001).isEqualTo(run.records());
            assertThat(append.valueBytes()).isEqualTo(100);
            try (RawMappedScanBaseline scan = run.openScan())
            {
                assertThat(scan.scan()).isEqualTo(10_001);
            }
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
