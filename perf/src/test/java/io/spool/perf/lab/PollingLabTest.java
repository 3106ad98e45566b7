package io.spool.perf.lab;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class PollingLabTest
{
    @TempDir
    Path dir;

    @Test
    void longPollingMakesTwoCallsInSixSecondsOfAnEmptyQueue()
    {
        final LabTable table = LabTestSupport.runTwiceAndCompare(new PollingLab(), dir);
        assertThat(table.figure("long polling (wait 5 s): receive calls")).isEqualTo("2");
        assertThat(table.figure("short polling (wait 0, 1 ms round trip): receive calls")).isEqualTo("6000");
    }
}
