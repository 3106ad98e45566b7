package io.spool.perf.lab;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class AckLabTest
{
    @TempDir
    Path dir;

    @Test
    void manualAckLosesNothingAndAutoAckLosesWhatTheConsumerHeld()
    {
        final LabTable table = LabTestSupport.runTwiceAndCompare(new AckLab(), dir);
        assertThat(table.figure("manual ack: lost")).isEqualTo("0");
        assertThat(table.figure("manual ack: flagged redelivered")).isEqualTo("10");
        assertThat(table.figure("manual ack: processed twice")).isEqualTo("1");
        assertThat(table.figure("manual ack: left in the queue")).isEqualTo("80");
        assertThat(table.figure("auto-ack: lost")).isEqualTo("10");
    }
}
