package io.spool.log;

import io.spool.log.internal.segment.SegmentDescriptor;
import io.spool.log.tools.LogInspector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Retention past a segment a reader still holds deletes the later segments' files while the held one stays on disk;
 * a crash then leaves a log directory whose first file lies below a gap. Opened again, that file is retention's
 * leftover: deleted, no hole reported (by the open or by {@code spool verify} before it), the log starting where
 * retention left it.
 */
class RetentionPastHeldSegmentTest
{
    @TempDir
    Path dir;
    @TempDir
    Path image;

    @Test
    void aSegmentHeldWhileRetentionPassedItIsDeletedAtTheNextOpenNotReportedAsAHole()
    {
        final List<String> appended = new ArrayList<>();
        final Path first;
        final long retainedFrom;
        try (LogFixture fx = new LogFixture(dir))
        {
            final PartitionLog log = fx.store.openLog("q/0", LogFixture.smallSegments(1024));
            while (log.segmentCount() < 5)
            {
                final String value = "v" + appended.size() + "-" + "x".repeat(100);
                final long offset = fx.append(log, null, value);
                appended.add(offset + ":" + LogFixture.text(null) + ":" + value);
            }
            first = segmentFiles(dir.resolve("q/0")).get(0);
            try (LogReader reader = log.newReader())
            {
                reader.poll(record -> { }, 1);
                final long belowActive = log.endOffset() - 1;
                assertThat(log.deleteSegmentsBelow(belowActive)).as("segments retention deletes").isGreaterThan(1);
                retainedFrom = log.startOffset();
                assertThat(first).as("the reader still holds the first segment").exists();
                LogFixture.copyCrashImage(dir, image);
            }
        }

        assertThat(LogInspector.verify(image.resolve("q/0")).holes()).as("holes spool verify names").isEmpty();
        try (LogFixture reopened = new LogFixture(image))
        {
            final PartitionLog log = reopened.store.openLog("q/0", LogFixture.smallSegments(1024));

            assertThat(log.recoveryReport().holes()).as("holes").isEmpty();
            assertThat(log.startOffset()).isEqualTo(retainedFrom);
            assertThat(image.resolve("q/0").resolve(first.getFileName())).as("the leftover first segment")
                .doesNotExist();
            assertThat(LogFixture.readAll(log, log.startOffset()))
                .isEqualTo(appended.subList((int)retainedFrom, appended.size()));
        }
    }

    private static List<Path> segmentFiles(final Path logDir)
    {
        try (Stream<Path> files = Files.list(logDir))
        {
            return files.filter(p -> p.getFileName().toString().endsWith(SegmentDescriptor.LOG_SUFFIX)).sorted()
                .toList();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
