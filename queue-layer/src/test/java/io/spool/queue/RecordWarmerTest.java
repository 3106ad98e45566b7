package io.spool.queue;

import io.spool.log.LogConfig;
import io.spool.log.LogProducer;
import io.spool.log.LogStore;
import io.spool.log.LogStoreConfig;
import io.spool.log.PartitionLog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class RecordWarmerTest
{
    private static final int STEP = 8;
    private static final long AHEAD = 30;

    @TempDir
    Path dir;
    private LogStore store;
    private PartitionLog log;

    @BeforeEach
    void setUp()
    {
        store = LogStore.open(dir, LogStoreConfig.defaults());
        log = store.openLog("t/0", LogConfig.builder().segmentBytes(4096).maxRecordBytes(2048)
            .indexIntervalBytes(256).build());
        final LogProducer producer = store.newProducer();
        for (int i = 0; i < 100; i++)
        {
            producer.appendAndWait(log, null, null, ("value-" + i + "-").repeat(10).getBytes(StandardCharsets.UTF_8));
        }
        assertThat(log.segmentCount()).as("the records span segments").isGreaterThan(2);
    }

    @AfterEach
    void tearDown()
    {
        store.close();
    }

    @Test
    void readsAStepAtATimeUpToItsDistancePastTheCursor()
    {
        try (RecordWarmer warmer = new RecordWarmer(log.newReader(), STEP, AHEAD))
        {
            assertThat(warmer.warm(0, 100)).isEqualTo(8);
            assertThat(warmer.warm(0, 100)).isEqualTo(8);
            assertThat(warmer.warm(0, 100)).isEqualTo(8);
            assertThat(warmer.warm(0, 100)).as("up to 30 past the cursor").isEqualTo(6);
            assertThat(warmer.warm(0, 100)).as("everything that far ahead was read").isZero();
            assertThat(warmer.warm(20, 100)).as("the cursor moved: from where it stopped").isEqualTo(8);
            assertThat(warmer.warm(20, 100)).as("to 50").isEqualTo(8);
            assertThat(warmer.warm(20, 100)).isEqualTo(4);
            assertThat(warmer.warm(20, 100)).isZero();
            assertThat(warmer.warm(75, 100)).as("the cursor passed what was read: from the cursor").isEqualTo(8);
            assertThat(warmer.warm(95, 100)).as("never past the log end").isEqualTo(5);
            assertThat(warmer.warm(95, 100)).isZero();
        }
    }

    @Test
    void stopsAtTheLogEndItIsGiven()
    {
        try (RecordWarmer warmer = new RecordWarmer(log.newReader(), STEP, AHEAD))
        {
            assertThat(warmer.warm(0, 3)).isEqualTo(3);
            assertThat(warmer.warm(0, 3)).isZero();
            assertThat(warmer.warm(0, 5)).as("the log grew").isEqualTo(2);
        }
    }

    @Test
    void recordsRetentionRemovedAreLeftAloneUntilTheCursorPassesThem()
    {
        try (RecordWarmer warmer = new RecordWarmer(log.newReader(), STEP, AHEAD))
        {
            assertThat(log.deleteSegmentsBelow(60)).isPositive();
            final long start = log.startOffset();
            assertThat(warmer.warm(0, 100)).as("nothing to read below the log start " + start).isZero();
            assertThat(warmer.warm(0, 100)).isZero();
            assertThat(warmer.warm(start, 100)).as("from the log start on").isEqualTo(8);
        }
    }
}
