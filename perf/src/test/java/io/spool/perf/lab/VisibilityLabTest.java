package io.spool.perf.lab;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class VisibilityLabTest
{
    @TempDir
    Path dir;

    @Test
    void anExpiredLockGoesToTheNextConsumerAtTheDeadlineAndTheOldReceiptIsRefused()
    {
        final LabTable table = LabTestSupport.runTwiceAndCompare(new VisibilityLab(), dir);
        assertThat(table.figure("no extension: B receives the message at")).isEqualTo("2.00 s");
        assertThat(table.figure("extend every 1 s: B receives the message at")).isEqualTo("never");
        assertThat(table.figure("extend every 1 s: A's ack at 3 s")).isEqualTo("acked");
        assertThat(table.figure("no extension: A's ack at 3 s with its old receipt"))
            .isEqualTo("refused: StaleReceiptException");
        assertThat(table.figure("no extension: B's ack after that")).isEqualTo("acked");
    }
}
