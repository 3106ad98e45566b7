package io.spool.perf.lab;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class PoisonLabTest
{
    @TempDir
    Path dir;

    @Test
    void aDeliveryLimitOfThreeDeliversFourTimesThenDeadLetters()
    {
        final LabTable table = LabTestSupport.runTwiceAndCompare(new PoisonLab(), dir);
        assertThat(table.figure("no limit (-1): deliveries in 2 s")).isEqualTo("2000");
        assertThat(table.figure("no limit (-1): dead-lettered")).isEqualTo("no");
        assertThat(table.figure("default limit (20): deliveries")).isEqualTo("21");
        assertThat(table.figure("limit 3: deliveries")).isEqualTo("4");
        assertThat(table.figure("limit 3: dead-lettered")).isEqualTo("yes, delivery_limit");
    }
}
