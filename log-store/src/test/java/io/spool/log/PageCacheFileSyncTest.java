package io.spool.log;

import io.spool.api.log.Durability;
import io.spool.api.log.LogConfig;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Under the layer that forces nothing, confirms still come under every-batch durability, and a crash image (what a
 * killed process leaves) holds every confirmed record: the properties that run on it lose nothing they check.
 */
class PageCacheFileSyncTest
{
    @TempDir
    Path dir;
    @TempDir
    Path image;

    @Test
    void everyBatchConfirmsAndACrashImageKeepsWhatWasConfirmed()
    {
        final LogConfig config = LogConfig.builder().segmentBytes(1024).maxRecordBytes(512).indexIntervalBytes(128)
            .durability(Durability.EVERY_BATCH).build();
        final List<String> appended = new ArrayList<>();
        try (LogStore store = open(dir))
        {
            final PartitionLog log = store.openLog("t/0", config);
            final LogProducer producer = store.newProducer();
            for (int i = 0; i < 20; i++)
            {
                final String value = "v" + i + "-" + "x".repeat(60);
                final long offset = producer.appendAndWait(log, null, null, LogFixture.bytes(value));
                appended.add(offset + ":null:" + value);
            }
            assertThat(log.segmentCount()).as("segments rolled").isGreaterThan(1);
            LogFixture.copyCrashImage(dir, image);
        }

        try (LogStore reopened = open(image))
        {
            assertThat(LogFixture.readAll(reopened.openLog("t/0", config), 0)).isEqualTo(appended);
        }
    }

    private static LogStore open(final Path dir)
    {
        final CachedEpochClock clock = new CachedEpochClock();
        clock.update(1_000_000L);
        return LogStore.open(dir, LogStoreConfig.builder().clock(clock).backgroundMaintenance(false)
            .fileSync(PageCacheFileSync.INSTANCE).build());
    }
}
