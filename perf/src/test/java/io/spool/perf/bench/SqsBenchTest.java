package io.spool.perf.bench;

import io.spool.perf.report.BenchRun;
import io.spool.testing.SlowTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code spool bench sqs} runs end to end on a few messages (a check that it works, not a measurement). */
@SlowTest
class SqsBenchTest
{
    @TempDir
    Path dir;

    @Test
    void aTinyRunMeasuresBothSides()
    {
        final StringWriter progress = new StringWriter();
        final List<BenchRun> runs = SqsBench.run(new SqsBench.Settings(dir, 40, 32, 2, 1, 1), new PrintWriter(progress));

        assertThat(runs).hasSize(2);
        assertThat(runs).allSatisfy(run ->
        {
            assertThat(run.result().measured().records()).isEqualTo(40);
            assertThat(run.result().baseline().records()).isEqualTo(40);
            assertThat(run.result().latencyPercentiles().samples()).isPositive();
            assertThat(run.throughput()).hasSize(2);
        });
        assertThat(progress.toString()).contains("bench sqs: warm-up round 1", "bench sqs: round 1", "ElasticMQ's");
        assertThatThrownBy(() -> new SqsBench.Settings(dir, 5, 32, 2, 1, 0))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("messages must be from 10");
    }
}
