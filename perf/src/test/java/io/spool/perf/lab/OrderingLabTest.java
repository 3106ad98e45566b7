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
    void onlyCompetingConsumersFinishEventsAfterNewerOnesOfTheirKey()
    {
        final LabTable table = LabTestSupport.runTwiceAndCompare(new OrderingLab(), dir);
        assertThat(Integer.parseInt(table.figure("competing: events finished after a newer one of their key")))
            .isPositive();
        assertThat(table.figure("single active consumer: out of order")).isEqualTo("0");
        assertThat(table.figure("single active consumer (push): deliveries to first / second")).endsWith(" / 0");
        assertThat(table.figure("message groups: out of order")).isEqualTo("0");
        assertThat(table.figure("message groups by key (pull): deliveries to first / second")).doesNotEndWith(" / 0");
    }
}
