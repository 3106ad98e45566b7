package io.spool.log;

import io.spool.log.internal.segment.SegmentDescriptor;
import io.spool.log.TemplateLog.Frame;
import io.spool.log.TemplateLog.SegmentLayout;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import static io.spool.log.internal.segment.SegmentDescriptor.LOG_SUFFIX;
import static io.spool.log.internal.segment.SegmentDescriptor.OFFSET_INDEX_SUFFIX;
import static io.spool.log.internal.segment.SegmentDescriptor.TIME_INDEX_SUFFIX;
import static io.spool.log.internal.segment.SegmentDescriptor.fileName;

/**
 * A list of file operations to apply to a copy of the template, and what they predict recovery makes of it
 * ({@link #expect()}): which offsets stay readable, which become holes, where the active segment is cut, which
 * segment headers and indexes were hit, and whether recovery can notice a loss at all.
 */
final class LogDamage
{
    private final TemplateLog template;
    final List<String> applied = new ArrayList<>();
    final Set<String> damagedIndexes = new HashSet<>();
    /** Indexes cut at an entry boundary: what is left still points right, the inspector may call it ok. */
    final Set<String> shortenedIndexes = new HashSet<>();
    private final List<FileOperation> operations = new ArrayList<>();
    private final Set<Long> damagedHeaders = new HashSet<>();
    private final int[] currentLogBytes;
    private final int[] currentIndexBytes;
    /** Per segment, the first offset damage took from it (its end when none), and whether nothing shows it. */
    private final long[] lostFrom;
    private final boolean[] lostSilently;
    /** Changed bytes in the zero-filled space after the active segment's last record. */
    private final Set<Integer> junkAfterTheLastRecord = new HashSet<>();
    boolean emptySegmentAfterTheLast;

    LogDamage(final TemplateLog template)
    {
        this.template = template;
        this.currentLogBytes = new int[template.segments.size()];
        this.currentIndexBytes = new int[template.segments.size() * 2];
        this.lostFrom = new long[template.segments.size()];
        this.lostSilently = new boolean[template.segments.size()];
        for (int i = 0; i < template.segments.size(); i++)
        {
            final SegmentLayout segment = template.segments.get(i);
            currentLogBytes[i] = segment.fileBytes;
            currentIndexBytes[2 * i] = size(OFFSET_INDEX_SUFFIX, segment);
            currentIndexBytes[2 * i + 1] = size(TIME_INDEX_SUFFIX, segment);
            lostFrom[i] = naturalEnd(i);
        }
    }

    private int size(final String suffix, final SegmentLayout segment)
    {
        return (int)TemplateLog.read(template.dir.resolve(fileName(segment.baseOffset, suffix))).length;
    }

    /** Where segment {@code i}'s records end in the template. */
    private long naturalEnd(final int i)
    {
        return i + 1 < template.segments.size() ? template.segments.get(i + 1).baseOffset : template.endOffset;
    }

    boolean hasJunkAfterTheLastRecord()
    {
        return !junkAfterTheLastRecord.isEmpty();
    }

    /**
     * What recovery should leave, derived from the template and the damage: a closed segment keeps its records up to
     * its first damaged one and the rest of its offsets, up to the next segment kept, become a hole; a closed
     * segment without a readable header is set aside (a hole); the active segment, the last one kept, is cut at its
     * first damaged record.
     */
    Expected expect()
    {
        final int n = template.segments.size();
        int lastFile = -1;
        for (int i = 0; i < n; i++)
        {
            lastFile = currentLogBytes[i] >= 0 ? i : lastFile;
        }
        final List<Long> cuts = new ArrayList<>();
        int deleted = 0;
        if (emptySegmentAfterTheLast)
        {
            deleted++;
            cuts.add(template.endOffset);
        }
        else if (damagedHeaders.contains(template.segments.get(lastFile).baseOffset))
        {
            deleted++;
            cuts.add(template.segments.get(lastFile).baseOffset);
        }
        final List<Integer> kept = new ArrayList<>();
        for (int i = 0; i < n; i++)
        {
            if (currentLogBytes[i] >= 0 && !damagedHeaders.contains(template.segments.get(i).baseOffset))
            {
                kept.add(i);
            }
        }
        final Expected expected = new Expected();
        if (kept.isEmpty())
        {
            expected.cuts(cuts, deleted);
            return expected;
        }
        final int first = kept.get(0);
        expected.start = template.segments.get(first).baseOffset;
        if (first > 0)
        {
            expected.holes.add(new long[]{0, expected.start});
        }
        for (int k = 0; k < kept.size(); k++)
        {
            final int i = kept.get(k);
            final long base = template.segments.get(i).baseOffset;
            expected.readable.add(new long[]{base, lostFrom[i]});
            if (k + 1 < kept.size())
            {
                final long nextBase = template.segments.get(kept.get(k + 1)).baseOffset;
                if (lostFrom[i] < nextBase)
                {
                    expected.holes.add(new long[]{lostFrom[i], nextBase});
                }
                if (lostFrom[i] == naturalEnd(i))
                {
                    expected.intactSegments.add(base);
                }
                continue;
            }
            expected.end = lostFrom[i];
            if (lostFrom[i] < naturalEnd(i) && !lostSilently[i])
            {
                cuts.add(lostFrom[i]);
            }
            else if (i == n - 1 && lostFrom[i] == naturalEnd(i) && !junkAfterTheLastRecord.isEmpty())
            {
                cuts.add(template.endOffset);
            }
        }
        expected.cuts(cuts, deleted);
        return expected;
    }

    /** What a recovered copy should hold. */
    static final class Expected
    {
        long start;
        long end;
        /** Ranges [from, to) of offsets whose records survive, in order. */
        final List<long[]> readable = new ArrayList<>();
        /** Ranges [from, to) recovery reports as holes, in order. */
        final List<long[]> holes = new ArrayList<>();
        /** Where the active segment is cut (or a segment after it deleted), or -1. */
        long truncatedAt = -1;
        int deletedSegments;
        /** Closed segments that keep every record: recovery leaves their indexes alone unless they were damaged. */
        final Set<Long> intactSegments = new HashSet<>();

        private void cuts(final List<Long> cuts, final int deleted)
        {
            truncatedAt = cuts.stream().mapToLong(Long::longValue).min().orElse(-1);
            deletedSegments = deleted;
        }

        boolean isReadable(final long offset)
        {
            return readable.stream().anyMatch(range -> offset >= range[0] && offset < range[1]);
        }

        /** The first readable offset at or after {@code offset}, or -1 when none is below the end. */
        long readableFrom(final long offset)
        {
            for (final long[] range : readable)
            {
                if (offset < range[1] && range[0] < range[1])
                {
                    return Math.max(offset, range[0]);
                }
            }
            return -1;
        }

        /** The first offset lost in a way recovery (and the inspector) can see; -1 when none is. */
        long firstVisibleLoss()
        {
            long first = truncatedAt;
            for (final long[] hole : holes)
            {
                first = first < 0 ? hole[0] : Math.min(first, hole[0]);
            }
            return first;
        }
    }

    void flipLog(final SegmentLayout segment, final SplittableRandom random)
    {
        final int bytes = currentLogBytes[template.segments.indexOf(segment)];
        if (bytes > 0)
        {
            flipLogAt(segment, random.nextInt(bytes), 1 + random.nextInt(255));
        }
    }

    void flipLogAt(final SegmentLayout segment, final int position, final int mask)
    {
        applied.add("flip " + fileName(segment.baseOffset, LOG_SUFFIX) + "@" + position);
        operations.add(dir -> xor(dir.resolve(fileName(segment.baseOffset, LOG_SUFFIX)), position, mask));
        damageLogAt(segment, position);
    }

    void overwriteLog(final SegmentLayout segment, final int position, final byte[] bytes)
    {
        applied.add("overwrite " + fileName(segment.baseOffset, LOG_SUFFIX) + "@" + position);
        operations.add(dir -> write(dir.resolve(fileName(segment.baseOffset, LOG_SUFFIX)), position, bytes));
        damageLogAt(segment, position);
    }

    void truncateLog(final SegmentLayout segment, final SplittableRandom random)
    {
        final int bytes = currentLogBytes[template.segments.indexOf(segment)];
        if (bytes >= 0)
        {
            truncateLogAt(segment, random.nextInt(bytes + 1));
        }
    }

    void truncateLogAt(final SegmentLayout segment, final int length)
    {
        final int i = template.segments.indexOf(segment);
        if (length >= currentLogBytes[i])
        {
            return;
        }
        currentLogBytes[i] = length;
        if (segment == template.last())
        {
            junkAfterTheLastRecord.removeIf(position -> position >= length);
        }
        applied.add("truncate " + fileName(segment.baseOffset, LOG_SUFFIX) + " to " + length);
        operations.add(dir -> truncate(dir.resolve(fileName(segment.baseOffset, LOG_SUFFIX)), length));
        if (length < SegmentDescriptor.HEADER_LENGTH)
        {
            damageHeader(segment);
            return;
        }
        for (final Frame frame : segment.frames)
        {
            if (frame.position() + frame.length() > length)
            {
                // A truncation that leaves no byte of the lost frame looks like a segment that simply ended there:
                // nothing in it is left to tell recovery, though the gap before the next segment does.
                lose(frame.offset(), frame.position() >= length);
                return;
            }
        }
    }

    /** What a kill between creating the next segment's file and writing its header leaves. */
    void addEmptySegmentAfterTheLast()
    {
        emptySegmentAfterTheLast = true;
        applied.add("empty " + fileName(template.endOffset, LOG_SUFFIX));
        operations.add(dir -> Files.createFile(dir.resolve(fileName(template.endOffset, LOG_SUFFIX))));
    }

    /**
     * Deletes a segment file, never the first: a log whose first segments are gone starts later, as after
     * retention, and loses nothing it still claims to hold.
     */
    void deleteLog(final SegmentLayout segment)
    {
        final int i = template.segments.indexOf(segment);
        if (i == 0 || currentLogBytes[i] < 0)
        {
            return;
        }
        currentLogBytes[i] = -1;
        damagedHeaders.remove(segment.baseOffset);
        applied.add("delete " + fileName(segment.baseOffset, LOG_SUFFIX));
        operations.add(dir -> Files.delete(dir.resolve(fileName(segment.baseOffset, LOG_SUFFIX))));
        if (segment == template.last())
        {
            junkAfterTheLastRecord.clear();
        }
    }

    void flipIndex(final SegmentLayout segment, final String suffix, final SplittableRandom random)
    {
        final int bytes = currentIndexBytes[indexSlot(segment, suffix)];
        if (bytes > 0)
        {
            final int position = random.nextInt(bytes);
            final int mask = 1 + random.nextInt(255);
            applied.add("flip " + fileName(segment.baseOffset, suffix) + "@" + position);
            operations.add(dir -> xor(dir.resolve(fileName(segment.baseOffset, suffix)), position, mask));
            damagedIndexes.add(fileName(segment.baseOffset, suffix));
        }
    }

    void truncateIndex(final SegmentLayout segment, final String suffix, final SplittableRandom random)
    {
        final int slot = indexSlot(segment, suffix);
        final int length = random.nextInt(currentIndexBytes[slot] + 1);
        if (length >= currentIndexBytes[slot])
        {
            return;
        }
        currentIndexBytes[slot] = length;
        applied.add("truncate " + fileName(segment.baseOffset, suffix) + " to " + length);
        operations.add(dir -> truncate(dir.resolve(fileName(segment.baseOffset, suffix)), length));
        if (length < segment.meaningfulIndexBytes(suffix))
        {
            damagedIndexes.add(fileName(segment.baseOffset, suffix));
            final int entryLength = suffix.equals(OFFSET_INDEX_SUFFIX) ?
                SegmentDescriptor.OFFSET_INDEX_ENTRY_LENGTH : SegmentDescriptor.TIME_INDEX_ENTRY_LENGTH;
            if (length >= SegmentDescriptor.INDEX_HEADER_LENGTH &&
                (length - SegmentDescriptor.INDEX_HEADER_LENGTH) % entryLength == 0)
            {
                shortenedIndexes.add(fileName(segment.baseOffset, suffix));
            }
        }
    }

    void deleteIndex(final SegmentLayout segment, final String suffix)
    {
        currentIndexBytes[indexSlot(segment, suffix)] = 0;
        applied.add("delete " + fileName(segment.baseOffset, suffix));
        operations.add(dir -> Files.deleteIfExists(dir.resolve(fileName(segment.baseOffset, suffix))));
        damagedIndexes.add(fileName(segment.baseOffset, suffix));
    }

    void garbageIndex(final SegmentLayout segment, final String suffix, final SplittableRandom random)
    {
        final byte[] garbage = new byte[1 + random.nextInt(96)];
        for (int i = 0; i < garbage.length; i++)
        {
            garbage[i] = (byte)random.nextInt(256);
        }
        currentIndexBytes[indexSlot(segment, suffix)] = garbage.length;
        applied.add("garbage " + fileName(segment.baseOffset, suffix) + " of " + garbage.length + " bytes");
        operations.add(dir -> Files.write(dir.resolve(fileName(segment.baseOffset, suffix)), garbage));
        damagedIndexes.add(fileName(segment.baseOffset, suffix));
    }

    private int indexSlot(final SegmentLayout segment, final String suffix)
    {
        return 2 * template.segments.indexOf(segment) + (suffix.equals(OFFSET_INDEX_SUFFIX) ? 0 : 1);
    }

    /** What a changed byte of a segment file costs: nothing in padding or reserved space. */
    private void damageLogAt(final SegmentLayout segment, final int position)
    {
        if (position < SegmentDescriptor.HEADER_LENGTH)
        {
            final int base = SegmentDescriptor.BASE_OFFSET_OFFSET;
            final boolean checked = position < SegmentDescriptor.VERSION_OFFSET + Integer.BYTES ||
                (position >= base && position < base + Long.BYTES);
            if (checked)
            {
                damageHeader(segment);
            }
            return;
        }
        for (final Frame frame : segment.frames)
        {
            if (position >= frame.position() && position < frame.position() + frame.length())
            {
                lose(frame.offset(), false);
                return;
            }
        }
        if (segment == template.last() && position >= segment.writtenEnd())
        {
            junkAfterTheLastRecord.add(position);
        }
    }

    private void damageHeader(final SegmentLayout segment)
    {
        damagedHeaders.add(segment.baseOffset);
    }

    /** Damage took the record at {@code offset} and every later one of its segment; {@code silently} if none shows. */
    private void lose(final long offset, final boolean silently)
    {
        final int i = template.segments.indexOf(template.segmentHolding(offset));
        if (offset < lostFrom[i])
        {
            lostFrom[i] = offset;
            lostSilently[i] = silently;
        }
    }

    void applyTo(final Path dir)
    {
        try
        {
            for (final FileOperation operation : operations)
            {
                operation.apply(dir);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    @FunctionalInterface
    interface FileOperation
    {
        void apply(Path dir) throws IOException;
    }

    private static void xor(final Path file, final int position, final int mask) throws IOException
    {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
        {
            raf.seek(position);
            final int old = raf.read();
            raf.seek(position);
            raf.write(old ^ mask);
        }
    }

    private static void write(final Path file, final int position, final byte[] bytes) throws IOException
    {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
        {
            raf.seek(position);
            raf.write(bytes);
        }
    }

    private static void truncate(final Path file, final long length) throws IOException
    {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
        {
            raf.setLength(length);
        }
    }
}
