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
        assertThat(table.figure("delay on publish (x-delay): 0.5 s message came out at")).isEqualTo("0.50 s");
        assertThat(table.figure("delay on publish: 5 s message came out at")).isEqualTo("5.00 s");
        assertThat(table.figure("nack with delay: 0.5 s message came out at")).isEqualTo("0.50 s");
        assertThat(table.figure("nack with delay: 5 s message came out at")).isEqualTo("5.00 s");
    }
}
