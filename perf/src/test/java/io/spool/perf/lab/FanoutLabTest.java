package io.spool.perf.lab;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class FanoutLabTest
{
    @TempDir
    Path dir;

    @Test
    void eachSubscriptionGetsEveryMessageAndWorkersShareOneSubscriptionFromOneStoredCopy()
    {
        final LabTable table = LabTestSupport.runTwiceAndCompare(new FanoutLab(), dir);
        assertThat(table.figure("pub/sub: email got")).isEqualTo("100 of 100");
        assertThat(table.figure("pub/sub: stats got")).isEqualTo("100 of 100");
        assertThat(table.figure("point-to-point: worker A / worker B")).isEqualTo("50 / 50");
        assertThat(table.figure("records stored for 3 subscriptions")).isEqualTo("100");
    }
}
