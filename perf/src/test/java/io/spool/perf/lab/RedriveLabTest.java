package io.spool.perf.lab;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class RedriveLabTest
{
    @TempDir
    Path dir;

    @Test
    void threeReceivesWithoutAckDeadLetterTheMessageAndARedriveBringsItBackOnce()
    {
        final LabTable table = LabTestSupport.runTwiceAndCompare(new RedriveLab(), dir);
        assertThat(table.figure("receives before it moved to the dead-letter topic")).isEqualTo("3");
        assertThat(table.figure("dead letter: reason, deliveries")).isEqualTo("delivery_limit, 3");
        assertThat(table.figure("redrive all: moved")).isEqualTo("1");
        assertThat(table.figure("after redrive: received again")).isEqualTo("1, invoice-42");
        assertThat(table.figure("after redrive: message id (dedup id) kept")).isEqualTo("invoice-42");
        assertThat(table.figure("redrive again from where the first stopped: moved")).isEqualTo("0");
    }
}
