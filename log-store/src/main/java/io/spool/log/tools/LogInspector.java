package io.spool.log.tools;

import io.spool.api.SpoolException;
import io.spool.api.log.HeadersCodec;
import io.spool.api.log.RecordView;
import io.spool.log.LogHole;
import io.spool.log.internal.recovery.LogHoles;
import io.spool.log.internal.recovery.SegmentInspection.IndexHealth;
import io.spool.log.internal.recovery.SegmentInspection;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Verifies and dumps a partition log directory for the people who operate it ({@code spool verify},
 * {@code spool dump}). It only reads: no file is ever written, truncated or deleted, so it is safe on a log a running
 * store has open and on a damaged log kept for analysis. It reports what recovery would cut and rebuild, and does
 * neither. On a live log, a frame being written at that moment may show as a torn write at the end.
 * <p>
 * Thread-safe (stateless).
 */
public final class LogInspector
{
    /** How many value (and key) bytes a dump line shows. */
    public static final int PRINTABLE_PREFIX_BYTES = 48;

    private LogInspector()
    {
    }

    /** True when {@code dir} is a directory that holds segment files: a partition log this tool can read. */
    public static boolean isLogDirectory(final Path dir)
    {
        return Files.isDirectory(dir) && !SegmentInspection.segmentFiles(dir).isEmpty();
    }

    /**
     * Checks every segment of {@code logDir}: its frames, its indexes, and that it starts where the one before ends;
     * names the holes readers skip (offsets damage took from closed segments, or that no segment file holds), and
     * says which ones recovery has already recorded.
     */
    public static VerifyReport verify(final Path logDir)
    {
        final List<LogHole> recorded = LogHoles.read(logDir);
        final List<SegmentReport> segments = new ArrayList<>();
        final List<FoundHole> holes = new ArrayList<>();
        final List<Path> files = SegmentInspection.segmentFiles(logDir);
        long expectedBase = -1;
        String lostBecause = null;
        for (int i = 0; i < files.size(); i++)
        {
            final SegmentInspection inspection = SegmentInspection.inspect(files.get(i));
            final boolean last = i == files.size() - 1;
            SegmentError error = inspection.problem() == null ? null :
                new SegmentError(inspection.problemPosition(), inspection.problemOffset(), inspection.problem());
            if (expectedBase >= 0 && inspection.baseOffset() < expectedBase)
            {
                // An overlap comes first: recovery drops this whole segment and those after it.
                error = new SegmentError(0, expectedBase, "segment starts at offset " + inspection.baseOffset() +
                    " but the segment before it ends at " + expectedBase);
            }
            else if (expectedBase >= 0 && inspection.baseOffset() > expectedBase)
            {
                holes.add(FoundHole.of(new LogHole(expectedBase, inspection.baseOffset(),
                    lostBecause == null ? "no segment file holds them" : lostBecause), recorded));
            }
            segments.add(new SegmentReport(files.get(i).getFileName().toString(), inspection.baseOffset(),
                inspection.endOffset(), inspection.records(), inspection.fileBytes(), inspection.validBytes(),
                inspection.firstTimestamp(), inspection.maxTimestamp(), inspection.offsetIndexHealth(),
                inspection.timeIndexHealth(),
                indexDetail(inspection.offsetIndexDetail(), inspection.timeIndexDetail()), error, last));
            lostBecause = error == null ? null : error.description() + " in " + files.get(i).getFileName();
            expectedBase = inspection.endOffset();
        }
        return new VerifyReport(logDir, segments, holes);
    }

    private static String indexDetail(final String offsetIndex, final String timeIndex)
    {
        if (offsetIndex == null)
        {
            return timeIndex;
        }
        return timeIndex == null ? offsetIndex : offsetIndex + "; " + timeIndex;
    }

    /**
     * Prints up to {@code count} valid records from offset {@code from} on, one line each: offset, timestamp, key,
     * headers, value size and a printable prefix of the value. Names each hole it passes over (damage in a closed
     * segment, a missing segment) and goes on after it, as readers do; stops at damage in the active segment.
     *
     * @return how many records were printed.
     */
    public static long dump(final Path logDir, final long from, final long count, final PrintStream out)
    {
        final StringBuilder line = new StringBuilder(256);
        final List<Path> files = SegmentInspection.segmentFiles(logDir);
        long printed = 0;
        long expectedBase = -1;
        String lostBecause = null;
        // Segments wholly below the start are not read: their names say where the next one begins.
        int first = 0;
        while (first + 1 < files.size() && baseOffsetOf(files.get(first + 1)) <= from)
        {
            first++;
        }
        for (final Path file : files.subList(first, files.size()))
        {
            if (printed >= count)
            {
                break;
            }
            final SegmentInspection inspection = SegmentInspection.inspect(file);
            if (expectedBase >= 0 && inspection.baseOffset() < expectedBase)
            {
                out.println("-- stopped: " + file.getFileName() + " starts at offset " + inspection.baseOffset() +
                    " but the segment before it ends at " + expectedBase);
                break;
            }
            if (expectedBase >= 0 && inspection.baseOffset() > expectedBase && inspection.baseOffset() > from)
            {
                out.println("-- hole: offsets " + Math.max(from, expectedBase) + ".." + (inspection.baseOffset() - 1) +
                    " cannot be read" + (lostBecause == null ? ": no segment file holds them" : lostBecause) +
                    "; going on at offset " + inspection.baseOffset());
            }
            lostBecause = null;
            expectedBase = inspection.endOffset();
            if (inspection.endOffset() > from)
            {
                final int limit = (int)Math.min(Integer.MAX_VALUE, count - printed);
                printed += inspection.readRecords(from, limit, record ->
                {
                    line.setLength(0);
                    out.println(describe(record, line));
                });
            }
            if (inspection.problem() != null)
            {
                lostBecause = " (" + inspection.problem() + " at position " + inspection.problemPosition() + " of " +
                    file.getFileName() + ")";
                if (file.equals(files.get(files.size() - 1)) && printed < count)
                {
                    // The active segment: recovery would cut the log here.
                    out.println("-- stopped at offset " + inspection.problemOffset() + " in " + file.getFileName() +
                        " (position " + inspection.problemPosition() + "): " + inspection.problem());
                }
            }
        }
        return printed;
    }

    private static long baseOffsetOf(final Path segmentFile)
    {
        return Long.parseLong(segmentFile.getFileName().toString().substring(0, 20));
    }

    private static StringBuilder describe(final RecordView record, final StringBuilder line)
    {
        line.append("offset=").append(record.offset())
            .append(" timestamp=").append(record.timestamp())
            .append(" (").append(Instant.ofEpochMilli(record.timestamp())).append(')')
            .append(" key=");
        printable(record.keyBytes(), line);
        line.append(" headers=");
        try
        {
            final Map<String, byte[]> headers = HeadersCodec.decode(record.buffer(), record.headersOffset(),
                record.headersLength());
            line.append('{');
            String separator = "";
            for (final Map.Entry<String, byte[]> header : headers.entrySet())
            {
                line.append(separator).append(header.getKey()).append('=');
                printable(header.getValue(), line);
                separator = ", ";
            }
            line.append('}');
        }
        catch (final SpoolException ex)
        {
            line.append("<undecodable ").append(record.headersLength()).append(" bytes: ").append(ex.getMessage())
                .append('>');
        }
        final byte[] value = record.valueBytes();
        line.append(" value=");
        if (value != null)
        {
            line.append(value.length).append(" bytes ");
        }
        printable(value, line);
        return line;
    }

    /** A quoted prefix with non-printable bytes as dots, or {@code null}. */
    private static void printable(final byte[] bytes, final StringBuilder line)
    {
        if (bytes == null)
        {
            line.append("null");
            return;
        }
        final int shown = Math.min(bytes.length, PRINTABLE_PREFIX_BYTES);
        final String text = new String(bytes, 0, shown, StandardCharsets.ISO_8859_1);
        line.append('"');
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            line.append(c >= 0x20 && c < 0x7F ? c : '.');
        }
        line.append('"');
        if (bytes.length > shown)
        {
            line.append("...");
        }
    }

    /**
     * The first damage found in a segment: where in the file, at which offset, and what. Immutable, thread-safe.
     */
    public record SegmentError(long position, long offset, String description)
    {
        @Override
        public String toString()
        {
            return description + " (offset " + offset + ", position " + position + ")";
        }
    }

    /**
     * What verify found in one segment; {@code endOffset} is exclusive and stops at the first error; the timestamps
     * (first, and largest, of the valid records; -1 without any) are what retention by age goes by; {@code active}
     * for the last segment, which takes appends and whose damage recovery cuts (a closed segment's becomes a hole).
     * Immutable, thread-safe.
     */
    public record SegmentReport(String file, long baseOffset, long endOffset, int records, long fileBytes,
        int validBytes, long firstTimestamp, long maxTimestamp, IndexHealth offsetIndex, IndexHealth timeIndex,
        String indexDetail, SegmentError error, boolean active)
    {
        public boolean isHealthy()
        {
            return error == null && offsetIndex == IndexHealth.OK && timeIndex == IndexHealth.OK;
        }

        @Override
        public String toString()
        {
            final String range = records == 0 ? "no records" : "offsets " + baseOffset + ".." + (endOffset - 1);
            final String times = records == 0 ? "" : ", timestamps " + firstTimestamp + " first, " + maxTimestamp +
                " largest";
            return file + ": " + range + ", " + records + " records, " + validBytes + " of " + fileBytes +
                " bytes valid" + times + ", offset index " + offsetIndex + ", time index " + timeIndex +
                (indexDetail == null ? "" : " (" + indexDetail + ")") +
                (error == null ? "" : ", ERROR " + error);
        }
    }

    /**
     * A hole verify found: the offsets, why, and whether recovery has already recorded it (then the reason is the
     * one recovery gave). Immutable, thread-safe.
     */
    public record FoundHole(LogHole hole, boolean recorded)
    {
        static FoundHole of(final LogHole found, final List<LogHole> recorded)
        {
            for (final LogHole known : recorded)
            {
                if (known.fromOffset() == found.fromOffset() && known.toOffset() == found.toOffset())
                {
                    return new FoundHole(known, true);
                }
            }
            return new FoundHole(found, false);
        }

        @Override
        public String toString()
        {
            return hole + (recorded ? " (recorded by recovery; readers skip it)" : " (recovery will record it; " +
                "readers will skip it)");
        }
    }

    /**
     * What verify found in a log directory, segment by segment, and the holes between. Immutable, thread-safe.
     */
    public static final class VerifyReport
    {
        private final Path logDir;
        private final List<SegmentReport> segments;
        private final List<FoundHole> holes;

        VerifyReport(final Path logDir, final List<SegmentReport> segments, final List<FoundHole> holes)
        {
            this.logDir = logDir;
            this.segments = Collections.unmodifiableList(segments);
            this.holes = Collections.unmodifiableList(holes);
        }

        public Path logDir()
        {
            return logDir;
        }

        public List<SegmentReport> segments()
        {
            return segments;
        }

        /**
         * The holes between segments, in offset order: where a damaged closed segment's valid records end, or a
         * segment file is missing, up to the next segment.
         */
        public List<FoundHole> holes()
        {
            return holes;
        }

        /**
         * True when every segment is intact, its indexes agree, and the offsets run on without gaps: a log with a
         * hole is not healthy, even one recovery recorded, because records are missing from it.
         */
        public boolean isHealthy()
        {
            return holes.isEmpty() && segments.stream().allMatch(SegmentReport::isHealthy);
        }

        /** The first damaged offset: a segment error, or where a gap begins; null when there is none. */
        public SegmentError firstError()
        {
            SegmentError first = null;
            for (final SegmentReport segment : segments)
            {
                if (segment.error() != null && (first == null || segment.error().offset() < first.offset()))
                {
                    first = segment.error();
                }
            }
            for (final FoundHole found : holes)
            {
                if (first == null || found.hole().fromOffset() < first.offset())
                {
                    first = new SegmentError(0, found.hole().fromOffset(), found.hole().reason());
                }
            }
            return first;
        }

        /** Prints one line per segment, one per hole, and a verdict, for the command line. */
        public void print(final PrintStream out)
        {
            out.println("log " + logDir + ": " + segments.size() + " segments");
            for (final SegmentReport segment : segments)
            {
                out.println("  " + segment);
            }
            for (final FoundHole hole : holes)
            {
                out.println("  hole: " + hole);
            }
            out.println(verdict());
        }

        private String verdict()
        {
            if (isHealthy())
            {
                return "healthy";
            }
            final List<String> findings = new ArrayList<>();
            if (!holes.isEmpty())
            {
                findings.add(holes.size() + (holes.size() == 1 ? " hole" : " holes") + " that readers skip");
            }
            final long trimmed = segments.stream().filter(segment -> !segment.active() && segment.error() != null &&
                holes.stream().noneMatch(found -> found.hole().fromOffset() == segment.endOffset())).count();
            if (trimmed > 0)
            {
                findings.add(trimmed + " closed " + (trimmed == 1 ? "segment" : "segments") + " with bytes after " +
                    "their last record, which recovery trims");
            }
            final SegmentReport active = segments.isEmpty() ? null : segments.get(segments.size() - 1);
            if (active != null && active.error() != null)
            {
                findings.add("recovery would cut the active segment at offset " + active.error().offset());
            }
            return findings.isEmpty() ? "indexes need rebuilding (recovery does it on open)" :
                "damaged: " + String.join("; ", findings);
        }
    }
}
