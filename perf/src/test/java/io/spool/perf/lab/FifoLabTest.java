package io.spool.perf.lab;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class FifoLabTest
{
    @TempDir
    Path dir;

    @Test
    void aGroupWaitsForItsMessageInFlightWhileOthersFlowInRunsAndARepeatedDedupIdIsNotStored()
    {
        final LabTable table = LabTestSupport.runTwiceAndCompare(new FifoLab(), dir);
        assertThat(table.figure("first receive of 1")).isEqualTo("A0");
        assertThat(table.figure("receive of 10 while A0 is in flight")).isEqualTo("B0, B1, B2, B3, C0, C1, C2, C3");
        assertThat(table.figure("receive of 10 after A0 is acked")).isEqualTo("A1, A2, A3");
        assertThat(table.figure("B0 published again: stored again")).startsWith("no");
        assertThat(table.figure("delivered per group A / B / C")).isEqualTo("4 / 4 / 4");
    }
}
