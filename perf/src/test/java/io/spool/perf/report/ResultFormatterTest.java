package io.spool.perf.report;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ResultFormatterTest
{
    private static final Throughput SPOOL = new Throughput("spool", 2_000_000, 100, 1_000_000_000L);
    private static final Throughput RAW = new Throughput("raw mapped append", 4_000_000, 100, 500_000_000L);
    private static final LatencySummary LATENCY = new LatencySummary(1_000, 12.5, 40.0, 80.25, 100.0);

    @Test
    void throughputIsRecordsAndValueMegabytesPerSecond()
    {
        assertThat(SPOOL.recordsPerSec()).isEqualTo(2_000_000.0);
        assertThat(SPOOL.mbPerSec()).isEqualTo(200.0);
        assertThat(RAW.recordsPerSec()).isEqualTo(8_000_000.0);
    }

    @Test
    void ratioIsRecordsPerSecondOverTheBaselines()
    {
        assertThat(SPOOL.ratioTo(RAW)).isEqualTo(0.25);
        assertThat(result(BenchResult.FSYNCS_NOT_COUNTED).ratio()).isEqualTo(0.25);
    }

    @Test
    void textKeepsThreeSignificantDigitsOfATinyRatio()
    {
        final Throughput fsynced = new Throughput("spool", 600, 100, 1_000_000_000L);
        final BenchResult result = new BenchResult(
            "ingest", 1, 1, "every-batch", fsynced, RAW, "publish to confirm", LATENCY, 600);

        assertThat(ResultFormatter.text(result)).containsPattern("ratio +7.50e-05 of baseline");
    }

    @Test
    void jsonHoldsTheAgreedFieldsAsOneObject()
    {
        assertThat(ResultFormatter.json(result(BenchResult.FSYNCS_NOT_COUNTED), Map.of("cpus", 2))).isEqualTo("{"
            + "\"benchmark\":\"ingest\",\"records\":2000000,\"payloadBytes\":100,\"partitions\":2,\"producers\":4,"
            + "\"durability\":\"none\",\"elapsedMillis\":1000,\"recordsPerSec\":2000000.0,\"mbPerSec\":200.0,"
            + "\"baseline\":\"raw mapped append\",\"baselineRecords\":4000000,\"baselineRecordsPerSec\":8000000.0,"
            + "\"baselineMbPerSec\":800.0,\"ratio\":0.25,\"latency\":\"publish to confirm\",\"latencySamples\":1000,"
            + "\"p50Micros\":12.5,\"p99Micros\":40.0,\"p999Micros\":80.25,\"maxMicros\":100.0,"
            + "\"environment\":{\"cpus\":2}}");
    }

    @Test
    void jsonCarriesFsyncsWhenTheyWereCounted()
    {
        assertThat(ResultFormatter.json(result(500), Map.of()))
            .endsWith(",\"maxMicros\":100.0,\"fsyncs\":500,\"fsyncsPerSec\":500.0,\"environment\":{}}");
    }

    @Test
    void textShowsThroughputBaselineRatioAndPercentiles()
    {
        assertThat(ResultFormatter.text(result(500)))
            .contains("2,000,000 records of 100 B, 2 partition(s), 4 producer(s), durability none")
            .containsPattern("spool +2,000,000 records/s +200.0 MB/s +\\(spool, 1.000 s\\)")
            .containsPattern("baseline +8,000,000 records/s +800.0 MB/s +\\(raw mapped append, 4,000,000 records")
            .containsPattern("ratio +0.250 of baseline")
            .contains("p50 12.5 us  p99 40.0 us  p99.9 80.3 us  max 100.0 us")
            .containsPattern("fsyncs +500 +\\(500 /s\\)");
    }

    @Test
    void alternatedRoundsAreListedPairByPairInTextAndJson()
    {
        final Throughput peer = new Throughput("chronicle", 2_000_000, 100, 500_000_000L);
        final List<RoundPair> rounds = List.of(new RoundPair(SPOOL, peer, true), new RoundPair(RAW, peer, false));
        final BenchResult result = new BenchResult("ingest", 1, 1, "none", SPOOL, peer, "publish to confirm", LATENCY,
            BenchResult.FSYNCS_NOT_COUNTED, rounds);

        assertThat(ResultFormatter.text(result))
            .containsPattern("round 1 +spool +2,000,000 records/s +baseline +4,000,000 records/s +ratio 0.500\n")
            .containsPattern("round 2 +spool +8,000,000 records/s +baseline +4,000,000 records/s +ratio 2.00 +"
                + "\\(baseline first\\)");
        assertThat(ResultFormatter.json(result, Map.of())).endsWith(",\"maxMicros\":100.0,\"rounds\":["
            + "{\"recordsPerSec\":2000000.0,\"baselineRecordsPerSec\":4000000.0,\"ratio\":0.5,\"spoolFirst\":true},"
            + "{\"recordsPerSec\":8000000.0,\"baselineRecordsPerSec\":4000000.0,\"ratio\":2.0,\"spoolFirst\":false}],"
            + "\"environment\":{}}");
    }

    private static BenchResult result(final long fsyncs)
    {
        return new BenchResult("ingest", 2, 4, "none", SPOOL, RAW, "publish to confirm", LATENCY, fsyncs);
    }
}
