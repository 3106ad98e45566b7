package io.spool.log;

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
                assertThat(entries(logDir)).as("files left in the log directory, three per segment")
                    .isLessThanOrEqualTo(3L * log.segmentCount());
                assertThat(log.segmentCount()).isLessThan(10);
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
        final RecordBatch batch = new RecordBatch();
        for (int i = 0; i < RECORDS_PER_ROUND; i++)
        {
            batch.add(null, null, new byte[VALUE_BYTES]);
        }
        final AtomicReference<SpoolException> failure = new AtomicReference<>();
        final ConfirmListener recordFailures = new ConfirmListener()
        {
            @Override
            public void onConfirmed(final long correlation, final long offset)
            {
            }

            @Override
            public void onFailed(final long correlation, final SpoolException error)
            {
                failure.compareAndSet(null, error);
            }
        };
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
