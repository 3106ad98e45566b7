package io.spool.perf.lab;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class ReplayLabTest
{
    @TempDir
    Path dir;

    @Test
    void theStreamReadsTheTopicTwiceIdenticallyAndTheQueueDrainsItOnceFromOneCopy()
    {
        final LabTable table = LabTestSupport.runTwiceAndCompare(new ReplayLab(), dir);
        assertThat(table.figure("stream, first read: records")).isEqualTo("1000");
        assertThat(table.figure("stream, second read: records")).isEqualTo("1000");
        assertThat(table.figure("stream, both reads byte-identical (SHA-256)")).startsWith("yes");
        assertThat(table.figure("queue, first drain: messages")).isEqualTo("1000");
        assertThat(table.figure("queue, second drain: messages")).isEqualTo("0");
        assertThat(table.figure("records stored for both")).isEqualTo("1000");
    }
}
