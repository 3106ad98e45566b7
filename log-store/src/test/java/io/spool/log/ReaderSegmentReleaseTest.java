package io.spool.log;

import io.spool.log.internal.segment.SegmentDescriptor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A reader holds the segment it is in; once its cursor moves out of it without reading (a seek, or passing
 * header-free records unread), it holds it no more, so a segment retention took out of the log leaves the disk then,
 * not when the reader closes.
 */
class ReaderSegmentReleaseTest
{
    @TempDir
    Path dir;
    private LogFixture fx;
    private PartitionLog log;
    private LogReader reader;
    /** The file of the log's first segment, which the reader entered by reading its first record. */
    private Path first;

    @BeforeEach
    void open() throws IOException
    {
        fx = new LogFixture(dir);
        log = fx.store.openLog("t/0", LogFixture.smallSegments(1024));
        while (log.segmentCount() < 3)
        {
            fx.append(log, null, "v".repeat(100));
        }
        try (Stream<Path> files = Files.list(dir.resolve("t/0")))
        {
            first = files.filter(p -> p.getFileName().toString().endsWith(SegmentDescriptor.LOG_SUFFIX)).sorted()
                .findFirst().orElseThrow();
        }
        reader = log.newReader();
        reader.poll(record -> { }, 1);
    }

    @AfterEach
    void close()
    {
        reader.close();
        fx.close();
    }

    @Test
    void passingHeaderFreeRecordsUnreadLetsTheSegmentLeftBehindGo()
    {
        assertThat(reader.skipHeaderFree(Integer.MAX_VALUE)).isPositive();

        assertThat(log.deleteSegmentsBelow(reader.nextOffset())).isPositive();
        assertThat(first).as("the first segment's file, left behind by the reader").doesNotExist();
    }

    @Test
    void seekingOutOfASegmentLetsItGo()
    {
        reader.seek(log.endOffset());

        assertThat(log.deleteSegmentsBelow(log.endOffset())).isPositive();
        assertThat(first).doesNotExist();
    }

    @Test
    void aReaderInsideADeletedSegmentKeepsItUntilItLeaves()
    {
        reader.seek(1);

        assertThat(log.deleteSegmentsBelow(log.endOffset())).isPositive();
        assertThat(first).as("a reader is still inside it").exists();
        reader.seek(log.endOffset());
        assertThat(first).doesNotExist();
    }
}
