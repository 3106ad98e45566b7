package io.spool.log;

import io.spool.api.SpoolException;
import io.spool.api.log.LogConfig;
import io.spool.log.internal.pipeline.SegmentPrefaulter;
import io.spool.log.internal.segment.Segment;
import io.spool.log.internal.segment.SegmentDescriptor;
import io.spool.log.tools.LogInspector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The prefaulter fills and touches segment pages ahead of the writer without changing a byte the writer stored,
 * and never past the end of a segment that a roll closed and trimmed; without it the writer fills pages itself.
 */
class SegmentPrefaulterTest
{
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(30);

    @TempDir
    Path dir;

    @Test
    void pagesAheadOfAGrowingLogAreFaultedInBeforeTheWriterReachesThem() throws Exception
    {
        final int lead = 1 << 20;
        try (LogStore store = LogStore.open(dir, LogStoreConfig.builder().backgroundMaintenance(false)
            .prefaultBytes(lead).build()))
        {
            final PartitionLog log = store.openLog("t/0", LogConfig.builder().segmentBytes(64 << 20).build());
            final LogProducer producer = store.newProducer();
            final Segment active = log.segments().active();
            final int position = SegmentDescriptor.HEADER_LENGTH;
            assertThat(active.isResident(position + lead / 2, position + lead)).as("a fresh segment is sparse").isFalse();

            final long deadline = System.nanoTime() + WAIT_NANOS;
            int writePosition;
            do
            {
                producer.appendAndWait(log, null, null, new byte[100]);
                writePosition = log.writer.writePosition();
            }
            while (!active.isResident(pageAfter(writePosition), pageAfter(writePosition) + lead / 4) &&
                System.nanoTime() < deadline);

            assertThat(active.isResident(pageAfter(writePosition), pageAfter(writePosition) + lead / 4))
                .as("pages past the writer at %d are resident", writePosition).isTrue();
            assertThat(log.endOffset()).as("far fewer records than the pages touched would hold")
                .isLessThan(lead / 4 / 144);
        }
    }

    @Test
    void rollingEveryFewRecordsWhileThePrefaulterRacesLeavesEveryRecordIntact() throws Exception
    {
        final int records = 20_000;
        final int perBatch = 100;
        final AtomicReference<SpoolException> failure = new AtomicReference<>();
        final ConfirmListener recordFailures = LogFixture.recordingFailures(failure);
        final LogConfig smallSegments = LogConfig.builder().segmentBytes(16 * 1024).maxRecordBytes(4096).build();
        try (LogStore store = LogStore.open(dir, LogStoreConfig.builder().backgroundMaintenance(false)
            .prefaultBytes(1 << 20).build()))
        {
            final PartitionLog log = store.openLog("t/0", smallSegments);
            final LogProducer producer = store.newProducer();
            final RecordBatch batch = new RecordBatch();
            for (int i = 0; i < perBatch; i++)
            {
                batch.add(null, null, value(i));
            }
            for (int sent = 0; sent < records; sent += perBatch)
            {
                producer.publishBatch(log, batch, recordFailures, sent);
            }
            assertThat(log.awaitEndAbove(records - 1, WAIT_NANOS)).isTrue();
            assertThat(failure.get()).isNull();
            assertThat(log.segmentCount()).as("segments rolled").isGreaterThan(100);
        }

        assertReopensCleanWith(smallSegments, records, perBatch);
    }

    @Test
    void withoutAPrefaulterTheWriterFillsThePagesItselfAndStoresOnlyBelowTheFill() throws Exception
    {
        final int records = 10_000;
        final LogConfig smallSegments = LogConfig.builder().segmentBytes(96 * 1024).maxRecordBytes(4096).build();
        try (LogStore store = LogStore.open(dir, LogStoreConfig.builder().backgroundMaintenance(false)
            .prefaultBytes(0).build()))
        {
            final PartitionLog log = store.openLog("t/0", smallSegments);
            final LogProducer producer = store.newProducer();
            for (int i = 0; i < records; i++)
            {
                producer.appendAndWait(log, null, null, value(i));
                assertThat(log.segments().active().cachedEnd()).as("the fill is ahead of the writer")
                    .isGreaterThanOrEqualTo(log.writer.writePosition());
            }
            assertThat(log.segmentCount()).as("segments rolled").isGreaterThan(10);
        }

        assertReopensCleanWith(smallSegments, records, records);
    }

    /** The log verifies healthy, recovers clean and holds {@code records} records, the i-th of value(i % period). */
    private void assertReopensCleanWith(final LogConfig config, final int records, final int period) throws Exception
    {
        assertThat(LogInspector.verify(dir.resolve("t/0")).isHealthy()).isTrue();
        try (LogStore store = LogStore.open(dir, LogStoreConfig.builder().backgroundMaintenance(false).build()))
        {
            final PartitionLog log = store.openLog("t/0", config);
            assertThat(log.recoveryReport().isClean()).isTrue();
            final List<String> read = new ArrayList<>();
            try (LogReader reader = log.newReader())
            {
                while (reader.poll(record -> read.add(new String(record.valueBytes())), 1000) > 0)
                {
                    continue;
                }
            }
            assertThat(read).hasSize(records);
            for (int i = 0; i < records; i++)
            {
                assertThat(read.get(i)).isEqualTo(new String(value(i % period)));
            }
        }
    }

    private static byte[] value(final int i)
    {
        return ("value " + i + ' ').repeat(10).getBytes(StandardCharsets.UTF_8);
    }

    private static int pageAfter(final int position)
    {
        return (position + SegmentPrefaulter.PAGE_BYTES) & -SegmentPrefaulter.PAGE_BYTES;
    }
}
