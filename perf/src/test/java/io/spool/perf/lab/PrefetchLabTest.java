package io.spool.perf.lab;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class PrefetchLabTest
{
    @TempDir
    Path dir;

    @Test
    void prefetchOneGivesTheFastConsumerMostOfTheWorkNearTheIdealTime()
    {
        final LabTable table = LabTestSupport.runTwiceAndCompare(new PrefetchLab(), dir);
        assertThat(table.figure("prefetch 1: fast / slow took")).isEqualTo("181 / 19");
        assertThat(table.figure("prefetch 1: all done after")).isEqualTo("0.95 s");
        assertThat(table.figure("unlimited, slow attached first: fast / slow took")).isEqualTo("0 / 200");
    }
}
