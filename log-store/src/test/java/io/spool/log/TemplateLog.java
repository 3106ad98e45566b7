package io.spool.log;

import io.spool.api.log.RecordDescriptor;
import io.spool.log.internal.recovery.LogRecovery;
import io.spool.log.internal.segment.SegmentDescriptor;
import io.spool.log.internal.segment.SegmentScanner;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.spool.log.internal.segment.SegmentDescriptor.LOG_SUFFIX;
import static io.spool.log.internal.segment.SegmentDescriptor.OFFSET_INDEX_SUFFIX;
import static io.spool.log.internal.segment.SegmentDescriptor.fileName;
import static org.assertj.core.api.Assertions.assertThat;

/** A closed log written once for the corruption tests: its segments in offset order, and where each frame lies. */
final class TemplateLog
{
    final Path dir;
    final List<SegmentLayout> segments = new ArrayList<>();
    final long endOffset;

    TemplateLog(final Path dir, final int indexIntervalBytes)
    {
        this.dir = dir;
        for (final long base : LogRecovery.segmentBases(dir))
        {
            segments.add(new SegmentLayout(dir, base, indexIntervalBytes));
        }
        endOffset = last().lastOffset() + 1;
    }

    SegmentLayout last()
    {
        return segments.get(segments.size() - 1);
    }

    SegmentLayout middle()
    {
        return segments.get(segments.size() / 2);
    }

    SegmentLayout segmentHolding(final long offset)
    {
        SegmentLayout found = segments.get(0);
        for (final SegmentLayout segment : segments)
        {
            if (segment.baseOffset <= offset)
            {
                found = segment;
            }
        }
        return found;
    }

    Frame frame(final long offset)
    {
        final SegmentLayout segment = segmentHolding(offset);
        return segment.frames.get((int)(offset - segment.baseOffset));
    }

    /** One stored frame of the template, padding excluded. */
    record Frame(long offset, int position, int length, byte[] bytes)
    {
    }

    /** Where the template's records and index entries lie in one segment. */
    static final class SegmentLayout
    {
        final long baseOffset;
        final int fileBytes;
        final int offsetIndexBytes;
        final int timeIndexBytes;
        final List<Frame> frames = new ArrayList<>();

        SegmentLayout(final Path dir, final long baseOffset, final int indexIntervalBytes)
        {
            this.baseOffset = baseOffset;
            final byte[] file = read(dir.resolve(fileName(baseOffset, LOG_SUFFIX)));
            this.fileBytes = file.length;
            final UnsafeBuffer buffer = new UnsafeBuffer(file);
            final SegmentScanner.Result scan = new SegmentScanner().scan(buffer, ByteBuffer.wrap(file), file.length,
                baseOffset, indexIntervalBytes);
            assertThat(scan.problem).as("template segment %d", baseOffset).isNull();
            this.offsetIndexBytes = SegmentDescriptor.INDEX_HEADER_LENGTH +
                scan.offsetIndexEntries() * SegmentDescriptor.OFFSET_INDEX_ENTRY_LENGTH;
            this.timeIndexBytes = SegmentDescriptor.INDEX_HEADER_LENGTH +
                scan.timeIndexEntries() * SegmentDescriptor.TIME_INDEX_ENTRY_LENGTH;
            int position = SegmentDescriptor.HEADER_LENGTH;
            for (long offset = baseOffset; offset < scan.nextOffset; offset++)
            {
                final int length = buffer.getInt(position);
                frames.add(new Frame(offset, position, length, Arrays.copyOfRange(file, position, position + length)));
                position += RecordDescriptor.align(length);
            }
        }

        long lastOffset()
        {
            return baseOffset + frames.size() - 1;
        }

        int writtenEnd()
        {
            final Frame last = frames.get(frames.size() - 1);
            return last.position() + RecordDescriptor.align(last.length());
        }

        /** Bytes of an index file that recovery compares; the active segment's files run on with zeroes. */
        int meaningfulIndexBytes(final String suffix)
        {
            return suffix.equals(OFFSET_INDEX_SUFFIX) ? offsetIndexBytes : timeIndexBytes;
        }
    }

    static byte[] read(final Path file)
    {
        try
        {
            return Files.readAllBytes(file);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
