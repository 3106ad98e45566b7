package io.spool.log;

import io.spool.api.SpoolException;
import io.spool.api.log.LogConfig;
import io.spool.log.internal.segment.Segment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rolls and deletes a thousand tiny segments, half by {@link PartitionLog#deleteSegmentsBelow} and half by size
 * retention, while a reader follows the log through them, and checks that the process holds no more file
 * descriptors and mappings afterwards than before.
 */
@EnabledOnOs(OS.LINUX)
class SegmentLifecycleTest
{
    private static final Path OPEN_FILES = Path.of("/proc/self/fd");
    private static final Path MAPPINGS = Path.of("/proc/self/maps");
    /** Room for what the JVM itself opens or maps meanwhile (JIT code cache, GC); a leak is thousands. */
    private static final int FD_SLACK = 4;
    private static final int MAPPING_SLACK = 40;
    private static final int SEGMENTS = 1000;
    /** Two records fill a segment: 2 * align(40 + 400) + 64 header bytes fit in 1024, a third does not. */
    private static final int VALUE_BYTES = 400;
    private static final int RECORDS_PER_ROUND = 40;
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(30);

    @TempDir
    Path dir;

    @Test
    void rollingAndDeletingAThousandSegmentsKeepsDescriptorsAndMappingsFlat() throws Exception
    {
        final LogConfig config = LogConfig.builder().segmentBytes(1024).maxRecordBytes(512).indexIntervalBytes(256)
            .retentionBytes(4 * 1024).build();
        try (LogFixture fx = new LogFixture(dir))
        {
            final PartitionLog log = fx.store.openLog("t/0", config);
            final Path logDir = dir.resolve("t/0");
            final LogProducer producer = fx.store.newProducer();
            try (LogReader reader = log.newReader())
            {
                // Warm up first, so class loading, pipeline threads and the first mappings are in the baseline.
                rollReadAndDelete(fx, log, producer, reader, 20);
                final long filesBefore = entries(OPEN_FILES);
                final long mappingsBefore = mappings();

                rollReadAndDelete(fx, log, producer, reader, SEGMENTS);

                assertThat(entries(OPEN_FILES)).as("open file descriptors").isLessThanOrEqualTo(filesBefore + FD_SLACK);
                assertThat(mappings()).as("mappings").isLessThanOrEqualTo(mappingsBefore + MAPPING_SLACK);
                assertThat(entries(logDir)).as("files left in the log directory, three per segment and the log start")
                    .isLessThanOrEqualTo(3L * log.segmentCount() + 1);
                assertThat(log.segmentCount()).isLessThan(10);
            }
        }
    }

    @Test
    void readingHundredsOfClosedSegmentsKeepsOnlyTheIdleBoundMapped() throws Exception
    {
        final int idleBound = 4;
        final LogConfig config = LogConfig.builder().segmentBytes(1024).maxRecordBytes(512).indexIntervalBytes(256)
            .build();
        try (LogStore store = LogStore.open(dir, LogStoreConfig.builder().backgroundMaintenance(false)
            .idleMappedSegments(idleBound).build()))
        {
            final PartitionLog log = store.openLog("t/0", config);
            final LogProducer producer = store.newProducer();
            try (LogReader reader = log.newReader())
            {
                rollAndRead(log, producer, reader, 20);
                final long mappingsBefore = mappings();

                rollAndRead(log, producer, reader, 300);
                reader.seek(log.startOffset());
                while (reader.poll(record -> assertThat(record.valueLength()).isEqualTo(VALUE_BYTES), 64) > 0)
                {
                    continue;
                }

                assertThat(log.segmentCount()).isGreaterThan(300);
                assertThat(mappings()).as("mappings: three per idle segment at most, however many were read")
                    .isLessThanOrEqualTo(mappingsBefore + 3L * idleBound + MAPPING_SLACK);
            }
        }
    }

    @Test
    void aClosedSegmentReadAgainReusesItsMappingWhileIdleAndIsRemappedOnceEvicted() throws Exception
    {
        final LogConfig config = LogConfig.builder().segmentBytes(1024).maxRecordBytes(512).indexIntervalBytes(256)
            .build();
        try (LogStore store = LogStore.open(dir, LogStoreConfig.builder().backgroundMaintenance(false)
            .idleMappedSegments(1).build()))
        {
            final PartitionLog log = store.openLog("t/0", config);
            try (LogReader reader = log.newReader())
            {
                rollAndRead(log, store.newProducer(), reader, 4);
            }
            final Segment first = log.segments().holding(0);
            final Segment second = log.segments().holding(first.endOffset());
            assertThat(first.isClosed()).isTrue();
            assertThat(second.isClosed()).isTrue();

            final long firstMapping = mappedAddress(first);
            assertThat(mappedAddress(first)).as("read again while idle: the same mapping").isEqualTo(firstMapping);

            mappedAddress(second);
            assertThat(first.buffer()).as("the bound of one evicted the first segment's mapping").isNull();
            assertThat(mappedAddress(first)).as("mapped again on the next read").isNotZero();
        }
    }

    /** Acquires the segment, returns the address of its record mapping, and releases it. */
    private static long mappedAddress(final Segment segment)
    {
        assertThat(segment.acquire()).isTrue();
        try
        {
            return segment.buffer().addressOffset();
        }
        finally
        {
            segment.release();
        }
    }

    /** Appends until the log has rolled {@code segments} more times, reading every record as it is committed. */
    private static void rollAndRead(final PartitionLog log, final LogProducer producer, final LogReader reader,
        final int segments) throws InterruptedException
    {
        final RecordBatch batch = roundOfRecords();
        final AtomicReference<SpoolException> failure = new AtomicReference<>();
        final ConfirmListener recordFailures = LogFixture.recordingFailures(failure);
        final int target = log.segmentCount() + segments;
        while (log.segmentCount() < target)
        {
            final long end = log.endOffset() + RECORDS_PER_ROUND;
            producer.publishBatch(log, batch, recordFailures, 0);
            assertThat(log.awaitEndAbove(end - 1, WAIT_NANOS)).as("records committed, failure: %s", failure).isTrue();
            assertThat(failure.get()).isNull();
            while (reader.nextOffset() < end)
            {
                reader.poll(record -> assertThat(record.valueLength()).isEqualTo(VALUE_BYTES), RECORDS_PER_ROUND);
            }
        }
    }

    /**
     * Appends until at least {@code segments} more segments have been deleted, reading every record as it is
     * committed, and deletes behind the reader: by offset on even rounds, by size retention on odd ones.
     */
    private static void rollReadAndDelete(final LogFixture fx, final PartitionLog log, final LogProducer producer,
        final LogReader reader, final int segments) throws InterruptedException
    {
        final RecordBatch batch = roundOfRecords();
        final AtomicReference<SpoolException> failure = new AtomicReference<>();
        final ConfirmListener recordFailures = LogFixture.recordingFailures(failure);
        int deleted = 0;
        for (int round = 0; deleted < segments; round++)
        {
            // One claim and one wait per round: on a loaded machine every thread hand-off costs a time slice.
            final long end = log.endOffset() + RECORDS_PER_ROUND;
            producer.publishBatch(log, batch, recordFailures, 0);
            assertThat(log.awaitEndAbove(end - 1, WAIT_NANOS)).as("records committed, failure: %s", failure).isTrue();
            assertThat(failure.get()).isNull();
            while (reader.nextOffset() < end)
            {
                reader.poll(record -> assertThat(record.valueLength()).isEqualTo(VALUE_BYTES), RECORDS_PER_ROUND);
            }
            deleted += round % 2 == 0 ? log.deleteSegmentsBelow(reader.nextOffset()) : fx.store.runMaintenance();
        }
    }

    private static RecordBatch roundOfRecords()
    {
        final RecordBatch batch = new RecordBatch();
        for (int i = 0; i < RECORDS_PER_ROUND; i++)
        {
            batch.add(null, null, new byte[VALUE_BYTES]);
        }
        return batch;
    }

    private static long mappings() throws IOException
    {
        try (Stream<String> lines = Files.lines(MAPPINGS))
        {
            return lines.count();
        }
    }

    private static long entries(final Path dir) throws IOException
    {
        try (Stream<Path> entries = Files.list(dir))
        {
            return entries.count();
        }
    }
}
