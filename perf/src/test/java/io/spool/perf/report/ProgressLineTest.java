package io.spool.perf.report;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

class ProgressLineTest
{
    @Test
    void rendersDoneTotalPercentAndRate()
    {
        assertThat(ProgressLine.render("ingest", 2_500_000, 10_000_000, 2_000_000_000L))
            .isEqualTo("ingest: 2,500,000 / 10,000,000 records (25%), 1,250,000 records/s");
    }

    @Test
    void rendersBeforeAnyTimeHasPassed()
    {
        assertThat(ProgressLine.render("replay", 0, 0, 0)).isEqualTo("replay: 0 / 0 records (100%), 0 records/s");
    }

    @Test
    void aRunShorterThanTheRedrawIntervalPrintsNothing()
    {
        final StringWriter out = new StringWriter();
        ProgressLine.start("ingest", 10, () -> 10, new PrintWriter(out)).close();
        assertThat(out.toString()).isEmpty();
    }
}
