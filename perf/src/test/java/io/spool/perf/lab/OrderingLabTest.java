package io.spool.perf.lab;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class OrderingLabTest
{
    @TempDir
    Path dir;

    @Test
    void competingConsumersWithRequeuesFinishSomeEventsAfterNewerOnes()
    {
        final LabTable table = LabTestSupport.runTwiceAndCompare(new OrderingLab(), dir);
        assertThat(Integer.parseInt(table.figure("competing consumers: deliveries"))).isGreaterThan(100);
        assertThat(Integer.parseInt(table.figure("competing consumers: events finished after a newer one of their key")))
            .isPositive();
    }
}
