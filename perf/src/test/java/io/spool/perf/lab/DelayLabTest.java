package io.spool.perf.lab;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class DelayLabTest
{
    @TempDir
    Path dir;

    @Test
    void aShortDelayBehindALongOneIsDueOnTime()
    {
        final LabTable table = LabTestSupport.runTwiceAndCompare(new DelayLab(), dir);
        assertThat(table.figure("0.5 s delay (queued behind the 5 s one) came out at")).isEqualTo("0.50 s");
        assertThat(table.figure("5 s delay came out at")).isEqualTo("5.00 s");
    }
}
