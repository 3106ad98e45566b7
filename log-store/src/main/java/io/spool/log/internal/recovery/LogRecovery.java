package io.spool.log.internal.recovery;

import io.spool.api.log.LogConfig;
import io.spool.log.FileSync;
import io.spool.log.LogHole;
import io.spool.log.RecoveryReport;
import io.spool.log.internal.segment.IdleSegmentMappings;
import io.spool.log.internal.segment.LogStart;
import io.spool.log.internal.segment.Segment;
import io.spool.log.internal.segment.SegmentFiles;
import io.spool.log.internal.segment.SegmentScanner;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.spool.log.internal.segment.SegmentDescriptor.*;

/**
 * Opens a log directory: validates every segment frame by frame; makes the offsets a damaged closed segment (or a
 * missing one) can no longer give a hole and keeps every segment after it; cuts the active segment at its first bad
 * frame and zeroes its torn tail; rewrites any index that disagrees with its segment. Valid records are never
 * touched. Not thread-safe; used once per log while opening it.
 */
public final class LogRecovery
{
    /** What a segment file whose header cannot be read is renamed with, out of the log. */
    public static final String DAMAGED_SUFFIX = ".damaged";

    private final Path dir;
    private final LogConfig config;
    private final IdleSegmentMappings idleMappings;
    private final FileSync fileSync;
    private final RecoveryReport report;
    private final SegmentScanner scanner = new SegmentScanner();
    private SegmentScanner.Result activeScan;

    public LogRecovery(final Path dir, final String name, final LogConfig config, final IdleSegmentMappings idleMappings,
        final FileSync fileSync)
    {
        this.fileSync = fileSync;
        this.dir = dir;
        this.config = config;
        this.idleMappings = idleMappings;
        this.report = new RecoveryReport(name);
    }

    public RecoveryReport report()
    {
        return report;
    }

    /** The scan of the segment that became active, or null when a new one was created. */
    public SegmentScanner.Result activeScan()
    {
        return activeScan;
    }

    /**
     * Returns the segments in offset order; the last is the active one, created when the directory holds none.
     * Damage in a closed segment costs the records from the damage to the segment's end and nothing after: the
     * segment keeps its valid records and its bytes, untouched for whoever wants to look at them, and the lost
     * offsets become a {@link LogHole}. A closed segment whose header cannot be read is moved aside
     * ({@value #DAMAGED_SUFFIX}), a hole too. Only the active segment's tail is cut.
     */
    public List<Segment> recover(final long nowMillis)
    {
        final long[] bases = dropRetained(segmentBases(dir), LogStart.read(dir));
        final List<LogHole> known = LogHoles.read(dir);
        final List<Segment> segments = new ArrayList<>();
        // Where the readable records stopped, and why, while looking for the next segment that holds any.
        long lostFrom = -1;
        final List<String> lostBecause = new ArrayList<>();
        SegmentScanner.Result lastClosedScan = null;
        for (int i = 0; i < bases.length; i++)
        {
            final long base = bases[i];
            final boolean last = i == bases.length - 1;
            final long keptEnd = lastClosedScan == null ? -1 : lastClosedScan.nextOffset;
            if (base < keptEnd)
            {
                deleteFrom(bases, i, keptEnd, "segment " + fileName(base, LOG_SUFFIX) + " starts at offset " + base +
                    ", inside the segment before it, which ends at " + keptEnd);
                break;
            }
            final SegmentScanner.Result scanned = scanSegment(base);
            if (scanned == null)
            {
                if (last)
                {
                    deleteFrom(bases, i, base, "segment " + fileName(base, LOG_SUFFIX) + " has an unreadable header");
                    break;
                }
                lostFrom = lostFrom < 0 ? base : lostFrom;
                lostBecause.add(setAside(base));
                continue;
            }
            if (lostFrom >= 0 && base > lostFrom)
            {
                hole(lostFrom, base, lostBecause, known);
            }
            lostFrom = -1;
            lostBecause.clear();
            report.segmentScanned(scanned.records);
            if (last)
            {
                activate(segments, base, scanned);
                break;
            }
            final String damage = closedTailDamage(base, scanned);
            if (damage != null && scanned.nextOffset != bases[i + 1])
            {
                lostBecause.add(damage + " in " + fileName(base, LOG_SUFFIX) + " (kept as it is)");
            }
            else
            {
                trimClosed(base, scanned);
            }
            syncIndexes(base, scanned, false);
            segments.add(Segment.openClosed(dir, base, scanned, idleMappings));
            lostFrom = scanned.nextOffset;
            lastClosedScan = scanned;
        }
        if (activeScan == null && !segments.isEmpty())
        {
            // The segments after this one were dropped (an unreadable last header), so it takes appends again.
            final Segment lastKept = segments.remove(segments.size() - 1);
            activate(segments, lastKept.baseOffset(), lastClosedScan);
        }
        if (segments.isEmpty())
        {
            segments.add(Segment.createActive(dir, bases.length == 0 ? 0 : bases[0], config, nowMillis, idleMappings));
        }
        if (!known.equals(report.holes()))
        {
            LogHoles.write(fileSync, dir, report.holes());
        }
        return segments;
    }

    /** Offsets {@code [from, to)} cannot be read; the reasons say why, none when no segment file holds them. */
    private void hole(final long from, final long to, final List<String> reasons, final List<LogHole> known)
    {
        for (final LogHole hole : known)
        {
            if (hole.fromOffset() == from && hole.toOffset() == to)
            {
                report.hole(hole, true);
                return;
            }
        }
        report.hole(new LogHole(from, to, reasons.isEmpty() ? "no segment file holds them" :
            String.join("; ", reasons)), false);
    }

    /**
     * Moves a closed segment whose header cannot be read out of the log, keeping its bytes; its indexes, derived
     * from it, go.
     *
     * @return why its records are lost.
     */
    private String setAside(final long base)
    {
        final String name = fileName(base, LOG_SUFFIX);
        try
        {
            Files.move(dir.resolve(name), dir.resolve(name + DAMAGED_SUFFIX), StandardCopyOption.REPLACE_EXISTING);
            Files.deleteIfExists(dir.resolve(fileName(base, OFFSET_INDEX_SUFFIX)));
            Files.deleteIfExists(dir.resolve(fileName(base, TIME_INDEX_SUFFIX)));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot move damaged segment " + name + " aside", ex);
        }
        return "segment " + name + " has an unreadable header; it was moved aside to " + name + DAMAGED_SUFFIX;
    }

    /**
     * What is wrong after the valid records of a closed segment: a bad frame, or bytes that are not zero; null
     * when they end cleanly.
     */
    private String closedTailDamage(final long base, final SegmentScanner.Result scanned)
    {
        if (scanned.problem != null)
        {
            return scanned.problem;
        }
        final Path path = dir.resolve(fileName(base, LOG_SUFFIX));
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ))
        {
            final long dirty = lastNonZeroByte(channel, scanned.validEnd, channel.size());
            return dirty < scanned.validEnd ? null : "non-zero bytes after the last valid record, up to position " +
                dirty;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read segment " + path, ex);
        }
    }

    private void activate(final List<Segment> segments, final long base, final SegmentScanner.Result scanned)
    {
        cutTail(base, scanned);
        syncIndexes(base, scanned, true);
        segments.add(Segment.openActive(dir, base, config, scanned, idleMappings));
        activeScan = scanned;
    }

    /**
     * Deletes the segments retention had already taken out of the log (see {@link LogStart}) whose files were still
     * held, or not yet gone, when the log last stopped.
     *
     * @return the bases of the segments left.
     */
    private long[] dropRetained(final long[] bases, final long logStart)
    {
        final int leftovers = LogStart.leftovers(bases, logStart);
        for (int i = 0; i < leftovers; i++)
        {
            deleteSegmentFiles(bases[i]);
            report.segmentDeleted();
        }
        return Arrays.copyOfRange(bases, leftovers, bases.length);
    }

    public static long[] segmentBases(final Path dir)
    {
        final List<Long> found = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir))
        {
            for (final Path file : files)
            {
                final long base = baseOffsetOf(file.getFileName().toString());
                if (base >= 0)
                {
                    found.add(base);
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list log directory " + dir, ex);
        }
        final long[] bases = found.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(bases);
        return bases;
    }

    private SegmentScanner.Result scanSegment(final long base)
    {
        final Path path = dir.resolve(fileName(base, LOG_SUFFIX));
        try
        {
            final long length = Files.size(path);
            if (length > Integer.MAX_VALUE)
            {
                return null;
            }
            final MappedByteBuffer mapped = SegmentFiles.map(path, FileChannel.MapMode.READ_ONLY, length);
            try
            {
                final UnsafeBuffer buffer = new UnsafeBuffer(mapped);
                if (SegmentScanner.checkHeader(buffer, length, base) != null)
                {
                    return null;
                }
                return scanner.scan(buffer, mapped.duplicate(), (int)length, base, config.indexIntervalBytes());
            }
            finally
            {
                IoUtil.unmap(mapped);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read segment " + path, ex);
        }
    }

    /**
     * Deletes the segments from index {@code from} on; {@code firstLostOffset} is where the dense log ends, which is
     * below the first deleted base when records of the segment before were lost too (a gap).
     */
    private void deleteFrom(final long[] bases, final int from, final long firstLostOffset, final String why)
    {
        for (int j = from; j < bases.length; j++)
        {
            final String name = fileName(bases[j], LOG_SUFFIX);
            final long bytes = deleteSegmentFiles(bases[j]);
            report.truncated(j == from ? firstLostOffset : bases[j], bytes, "deleted " + name + ": " + why);
            report.segmentDeleted();
        }
    }

    /** Deletes a segment's record file and its indexes; returns the record file's size. */
    private long deleteSegmentFiles(final long base)
    {
        final String name = fileName(base, LOG_SUFFIX);
        try
        {
            final long bytes = Files.size(dir.resolve(name));
            Files.deleteIfExists(dir.resolve(name));
            Files.deleteIfExists(dir.resolve(fileName(base, OFFSET_INDEX_SUFFIX)));
            Files.deleteIfExists(dir.resolve(fileName(base, TIME_INDEX_SUFFIX)));
            return bytes;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot delete segment " + name, ex);
        }
    }

    /**
     * Zeroes everything after the last valid record of the segment that becomes active: a torn frame left there
     * must never be mistaken for a record once new appends land around it.
     */
    private void cutTail(final long base, final SegmentScanner.Result scanned)
    {
        final Path path = dir.resolve(fileName(base, LOG_SUFFIX));
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            final long length = channel.size();
            final long dirty = lastNonZeroByte(channel, scanned.validEnd, length);
            if (dirty >= scanned.validEnd)
            {
                report.truncated(scanned.nextOffset, dirty - scanned.validEnd + 1,
                    (scanned.problem != null ? scanned.problem : "torn write after the last record") + " in " +
                        path.getFileName() + ": cut at offset " + scanned.nextOffset);
            }
            channel.truncate(scanned.validEnd);
            if (dirty >= scanned.validEnd)
            {
                // New appends land where the cut bytes were: the cut must not come undone under them.
                fileSync.force(path, channel, true);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot cut the tail of " + path, ex);
        }
    }

    private void trimClosed(final long base, final SegmentScanner.Result scanned)
    {
        final Path path = dir.resolve(fileName(base, LOG_SUFFIX));
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            if (channel.size() > scanned.validEnd)
            {
                final long dirty = lastNonZeroByte(channel, scanned.validEnd, channel.size());
                if (dirty >= scanned.validEnd)
                {
                    report.truncated(scanned.nextOffset, dirty - scanned.validEnd + 1,
                        "bytes after the last record of closed segment " + path.getFileName());
                }
                channel.truncate(scanned.validEnd);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot trim " + path, ex);
        }
    }

    private static long lastNonZeroByte(final FileChannel channel, final long from, final long to) throws IOException
    {
        final ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
        long last = -1;
        long position = from;
        while (position < to)
        {
            chunk.clear();
            final int read = channel.read(chunk, position);
            if (read <= 0)
            {
                break;
            }
            for (int i = 0; i < read; i++)
            {
                if (chunk.get(i) != 0)
                {
                    last = position + i;
                }
            }
            position += read;
        }
        return last;
    }

    private void syncIndexes(final long base, final SegmentScanner.Result scanned, final boolean active)
    {
        final ByteBuffer offsets = ByteBuffer.allocate(scanned.offsetIndex.size() * Integer.BYTES)
            .order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < scanned.offsetIndex.size(); i++)
        {
            offsets.putInt(scanned.offsetIndex.getInt(i));
        }
        final ByteBuffer times = ByteBuffer.allocate(scanned.timeIndexEntries() * TIME_INDEX_ENTRY_LENGTH)
            .order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < scanned.timeIndex.size(); i += 2)
        {
            times.putLong(scanned.timeIndex.getLong(i));
            times.putInt((int)scanned.timeIndex.getLong(i + 1));
            times.putInt(0);
        }
        syncIndex(dir.resolve(fileName(base, OFFSET_INDEX_SUFFIX)), OFFSET_INDEX_MAGIC, OFFSET_INDEX_ENTRY_LENGTH,
            offsets.flip(), active);
        syncIndex(dir.resolve(fileName(base, TIME_INDEX_SUFFIX)), TIME_INDEX_MAGIC, TIME_INDEX_ENTRY_LENGTH,
            times.flip(), active);
    }

    /**
     * Rewrites the index file unless it already holds exactly the expected header and entries (an active segment's
     * index may be followed by zeroed pre-allocated space).
     */
    private void syncIndex(final Path path, final long magic, final int entryLength, final ByteBuffer entries,
        final boolean active)
    {
        final ByteBuffer expected = ByteBuffer.allocate(INDEX_HEADER_LENGTH + entries.remaining());
        expected.put(SegmentFiles.indexHeader(magic, entryLength)).put(entries).flip();
        try
        {
            if (Files.exists(path))
            {
                final byte[] existing = Files.readAllBytes(path);
                if (matches(existing, expected, active))
                {
                    return;
                }
            }
            report.indexRebuilt(path.getFileName().toString());
            try (FileChannel channel = FileChannel.open(path,
                StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE))
            {
                while (expected.hasRemaining())
                {
                    channel.write(expected);
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot rebuild index " + path, ex);
        }
    }

    private static boolean matches(final byte[] existing, final ByteBuffer expected, final boolean active)
    {
        final int n = expected.remaining();
        if (existing.length < n || (!active && existing.length != n))
        {
            return false;
        }
        for (int i = 0; i < n; i++)
        {
            if (existing[i] != expected.get(i))
            {
                return false;
            }
        }
        for (int i = n; i < existing.length; i++)
        {
            if (existing[i] != 0)
            {
                return false;
            }
        }
        return true;
    }
}
