package io.spool.log.tools;

import io.spool.log.HeadersCodec;
import io.spool.log.RecordView;
import io.spool.log.SegmentInspection;
import io.spool.log.SegmentInspection.IndexHealth;
import io.spool.log.SpoolException;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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

    /**
     * Checks every segment of {@code logDir}: its frames, its indexes, and that it starts where the one before ends.
     */
    public static VerifyReport verify(final Path logDir)
    {
        final List<SegmentReport> segments = new ArrayList<>();
        long expectedBase = -1;
        for (final Path file : SegmentInspection.segmentFiles(logDir))
        {
            final SegmentInspection inspection = SegmentInspection.inspect(file);
            SegmentError error = inspection.problem() == null ? null :
                new SegmentError(inspection.problemPosition(), inspection.problemOffset(), inspection.problem());
            if (expectedBase >= 0 && inspection.baseOffset() != expectedBase)
            {
                // A gap or an overlap comes first: recovery drops this whole segment for it.
                error = new SegmentError(0, expectedBase, "segment starts at offset " + inspection.baseOffset() +
                    " but the segment before it ends at " + expectedBase);
            }
            segments.add(new SegmentReport(file.getFileName().toString(), inspection.baseOffset(),
                inspection.endOffset(), inspection.records(), inspection.fileBytes(), inspection.validBytes(),
                inspection.firstTimestamp(), inspection.maxTimestamp(), inspection.offsetIndexHealth(),
                inspection.timeIndexHealth(),
                indexDetail(inspection.offsetIndexDetail(), inspection.timeIndexDetail()), error));
            expectedBase = inspection.endOffset();
        }
        return new VerifyReport(logDir, segments);
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
     * headers, value size and a printable prefix of the value. Stops at the first damaged record and says so.
     *
     * @return how many records were printed.
     */
    public static long dump(final Path logDir, final long from, final long count, final PrintStream out)
    {
        final StringBuilder line = new StringBuilder(256);
        final List<Path> files = SegmentInspection.segmentFiles(logDir);
        long printed = 0;
        long expectedBase = -1;
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
            if (expectedBase >= 0 && inspection.baseOffset() != expectedBase)
            {
                out.println("-- stopped: " + file.getFileName() + " starts at offset " + inspection.baseOffset() +
                    " but the segment before it ends at " + expectedBase);
                break;
            }
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
                // Recovery would cut the log here; what follows is not part of it.
                if (printed < count)
                {
                    out.println("-- stopped at offset " + inspection.problemOffset() + " in " + file.getFileName() +
                        " (position " + inspection.problemPosition() + "): " + inspection.problem());
                }
                break;
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
     * (first, and largest, of the valid records; -1 without any) are what retention by age goes by. Immutable,
     * thread-safe.
     */
    public record SegmentReport(String file, long baseOffset, long endOffset, int records, long fileBytes,
        int validBytes, long firstTimestamp, long maxTimestamp, IndexHealth offsetIndex, IndexHealth timeIndex,
        String indexDetail, SegmentError error)
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
     * What verify found in a log directory, segment by segment. Immutable, thread-safe.
     */
    public static final class VerifyReport
    {
        private final Path logDir;
        private final List<SegmentReport> segments;

        VerifyReport(final Path logDir, final List<SegmentReport> segments)
        {
            this.logDir = logDir;
            this.segments = Collections.unmodifiableList(segments);
        }

        public Path logDir()
        {
            return logDir;
        }

        public List<SegmentReport> segments()
        {
            return segments;
        }

        /** True when every segment is intact, its indexes agree, and the offsets run on without gaps. */
        public boolean isHealthy()
        {
            return segments.stream().allMatch(SegmentReport::isHealthy);
        }

        /** The first segment error in offset order, or null: recovery would cut the log there. */
        public SegmentError firstError()
        {
            return segments.stream().map(SegmentReport::error).filter(e -> e != null).findFirst().orElse(null);
        }

        /** Prints one line per segment and a verdict, for the command line. */
        public void print(final PrintStream out)
        {
            out.println("log " + logDir + ": " + segments.size() + " segments");
            for (final SegmentReport segment : segments)
            {
                out.println("  " + segment);
            }
            final SegmentError first = firstError();
            out.println(isHealthy() ? "healthy" : first == null ? "indexes need rebuilding (recovery does it on open)" :
                "damaged: recovery would cut the log at offset " + first.offset());
        }
    }
}
