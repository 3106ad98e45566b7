package io.spool.perf.bench;

import io.spool.api.log.Durability;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BenchSettingsTest
{
    private final BenchSettings settings =
        new BenchSettings(5_000_000, 9_000, 100, 2, 3, 1, Durability.interval(5), 64, 4, Path.of("data"));

    @Test
    void withRecordsChangesOnlyTheRecordCount()
    {
        assertThat(settings.withRecords(1_000)).isEqualTo(
            new BenchSettings(1_000, 9_000, 100, 2, 3, 1, Durability.interval(5), 64, 4, Path.of("data")));
    }

    @Test
    void withRecordsRefusesAnEmptyRun()
    {
        assertThatThrownBy(() -> settings.withRecords(0)).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("records must be at least 1, was 0");
    }
}
