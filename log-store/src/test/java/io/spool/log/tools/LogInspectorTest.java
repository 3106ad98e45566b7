package io.spool.log.tools;

import io.spool.api.log.HeadersCodec;
import io.spool.log.LogFixture;
import io.spool.log.PartitionLog;
import io.spool.log.internal.recovery.SegmentInspection.IndexHealth;
import io.spool.log.tools.LogInspector.SegmentReport;
import io.spool.log.tools.LogInspector.VerifyReport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class LogInspectorTest
{
    private static final int RECORDS = 200;
    /** Where the first frame of a segment starts, after the segment header. */
    private static final int FIRST_FRAME = 64;

    @TempDir
    Path dataDir;
    Path logDir;

    @BeforeEach
    void writeLog()
    {
        try (LogFixture fx = new LogFixture(dataDir))
        {
            final PartitionLog log = fx.store.openLog("t/0", LogFixture.smallSegments(4096));
            final Map<String, byte[]> headers = new LinkedHashMap<>();
            headers.put("trace", LogFixture.bytes("abc"));
            for (int i = 0; i < RECORDS; i++)
            {
                fx.clock.update(1_000_000L + i);
                fx.store.newProducer().appendAndWait(log, LogFixture.bytes("k" + i),
                    i % 2 == 0 ? HeadersCodec.encode(headers) : null, LogFixture.bytes("value-" + i + "\n"));
            }
        }
        logDir = dataDir.resolve("t/0");
    }

    @Test
    void healthyLogVerifiesCleanSegmentBySegment()
    {
        final VerifyReport report = LogInspector.verify(logDir);

        assertThat(report.isHealthy()).as(report.segments().toString()).isTrue();
        assertThat(report.firstError()).isNull();
        final List<SegmentReport> segments = report.segments();
        assertThat(segments).hasSizeGreaterThan(3);
        long expectedBase = 0;
        for (final SegmentReport segment : segments)
        {
            assertThat(segment.baseOffset()).isEqualTo(expectedBase);
            assertThat(segment.file()).isEqualTo(String.format("%020d.log", segment.baseOffset()));
            assertThat(segment.records()).isPositive();
            assertThat(segment.endOffset()).isEqualTo(segment.baseOffset() + segment.records());
            assertThat(segment.validBytes()).isGreaterThan(FIRST_FRAME).isLessThanOrEqualTo((int)segment.fileBytes());
            assertThat(segment.offsetIndex()).isEqualTo(IndexHealth.OK);
            assertThat(segment.timeIndex()).isEqualTo(IndexHealth.OK);
            assertThat(segment.indexDetail()).isNull();
            assertThat(segment.firstTimestamp()).isEqualTo(1_000_000L + segment.baseOffset());
            assertThat(segment.maxTimestamp()).isEqualTo(1_000_000L + segment.endOffset() - 1);
            expectedBase = segment.endOffset();
        }
        assertThat(expectedBase).isEqualTo(RECORDS);
        assertThat(print(report::print)).endsWith("healthy\n").contains("offsets 0..");
    }

    @Test
    void dumpPrintsOffsetTimestampKeyHeadersAndValuePrefix()
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final long printed = LogInspector.dump(logDir, 10, 3, new PrintStream(bytes, true, StandardCharsets.UTF_8));

        assertThat(printed).isEqualTo(3);
        assertThat(bytes.toString(StandardCharsets.UTF_8).lines()).containsExactly(
            "offset=10 timestamp=1000010 (1970-01-01T00:16:40.010Z) key=\"k10\" headers={trace=\"abc\"} " +
                "value=9 bytes \"value-10.\"",
            "offset=11 timestamp=1000011 (1970-01-01T00:16:40.011Z) key=\"k11\" headers={} value=9 bytes \"value-11.\"",
            "offset=12 timestamp=1000012 (1970-01-01T00:16:40.012Z) key=\"k12\" headers={trace=\"abc\"} " +
                "value=9 bytes \"value-12.\"");
    }

    @Test
    void dumpCrossesSegmentsAndEndsAtTheLastRecord()
    {
        final String out = print(ps -> assertThat(LogInspector.dump(logDir, 0, 1_000, ps)).isEqualTo(RECORDS));
        assertThat(out.lines()).hasSize(RECORDS).last().asString().startsWith("offset=199 ");
        assertThat(print(ps -> assertThat(LogInspector.dump(logDir, RECORDS, 10, ps)).isZero())).isEmpty();
        assertThat(print(ps -> LogInspector.dump(logDir, 150, 60, ps)).lines())
            .hasSize(50).first().asString().startsWith("offset=150 ");
    }

    @Test
    void corruptedLogReportsTheFirstErrorAndIndexHealthWithoutTouchingAFile() throws IOException
    {
        final List<SegmentReport> healthy = LogInspector.verify(logDir).segments();
        final SegmentReport middle = healthy.get(healthy.size() / 2);
        final Path middleFile = logDir.resolve(middle.file());
        final int damagedPosition = framePosition(middleFile, 2);
        final long damagedOffset = middle.baseOffset() + 2;
        flipByte(middleFile, damagedPosition + 44);
        final String first = String.format("%020d", healthy.get(0).baseOffset());
        final String last = String.format("%020d", healthy.get(healthy.size() - 1).baseOffset());
        Files.delete(logDir.resolve(first + ".index"));
        Files.write(logDir.resolve(last + ".timeindex"),
            "this is not an index file".getBytes(StandardCharsets.US_ASCII));
        final Map<Path, String> before = snapshot();

        final VerifyReport report = LogInspector.verify(logDir);
        final long next = healthy.get(healthy.size() / 2 + 1).baseOffset();
        final long end = healthy.get(healthy.size() - 1).endOffset();
        final long readable = damagedOffset + end - next;
        final String dumped = print(ps -> assertThat(LogInspector.dump(logDir, 0, 1_000, ps)).isEqualTo(readable));

        assertThat(snapshot()).as("files after verify and dump").isEqualTo(before);
        assertThat(report.isHealthy()).isFalse();
        assertThat(report.firstError().offset()).isEqualTo(damagedOffset);
        assertThat(report.firstError().position()).isEqualTo(damagedPosition);
        assertThat(report.firstError().description()).contains("CRC32C mismatch");
        final SegmentReport damaged = report.segments().get(healthy.size() / 2);
        assertThat(damaged.records()).isEqualTo(2);
        assertThat(damaged.endOffset()).isEqualTo(damagedOffset);
        assertThat(damaged.validBytes()).isEqualTo(damagedPosition);
        assertThat(damaged.offsetIndex()).as(damaged.toString()).isEqualTo(IndexHealth.DISAGREES);
        assertThat(damaged.indexDetail()).contains("names no valid record");
        assertThat(report.segments().get(0).offsetIndex()).isEqualTo(IndexHealth.MISSING);
        assertThat(report.segments().get(0).timeIndex()).isEqualTo(IndexHealth.OK);
        final SegmentReport lastSegment = report.segments().get(report.segments().size() - 1);
        assertThat(lastSegment.timeIndex()).isEqualTo(IndexHealth.DISAGREES);
        assertThat(lastSegment.indexDetail()).contains("bad magic");
        assertThat(report.segments().get(healthy.size() / 2 + 1).error()).as("the segment after the damage").isNull();
        assertThat(report.holes()).singleElement().satisfies(found ->
        {
            assertThat(found.recorded()).isFalse();
            assertThat(found.hole().fromOffset()).isEqualTo(damagedOffset);
            assertThat(found.hole().toOffset()).isEqualTo(next);
            assertThat(found.hole().reason()).contains("CRC32C mismatch").contains(middle.file());
        });
        assertThat(print(report::print)).contains("hole: offsets " + damagedOffset + ".." + (next - 1))
            .contains("damaged: 1 hole that readers skip");
        assertThat(dumped.lines()).hasSize((int)readable + 1)
            .filteredOn(line -> line.startsWith("--")).singleElement().asString()
            .startsWith("-- hole: offsets " + damagedOffset + ".." + (next - 1) + " cannot be read (CRC32C mismatch")
            .endsWith("going on at offset " + next);
    }

    @Test
    void tornTailAndOutOfPlaceIndexEntryAreReported() throws IOException
    {
        final List<SegmentReport> healthy = LogInspector.verify(logDir).segments();
        final SegmentReport last = healthy.get(healthy.size() - 1);
        final Path lastFile = logDir.resolve(last.file());
        final int lastFrame = framePosition(lastFile, last.records() - 1);
        // Half a frame: the frame is there but its length word was never written.
        writeInt(lastFile, lastFrame, 0);
        final Path offsetIndex = logDir.resolve(String.format("%020d.index", healthy.get(0).baseOffset()));
        writeInt(offsetIndex, 16 + Integer.BYTES, FIRST_FRAME + 8);

        final VerifyReport report = LogInspector.verify(logDir);

        final SegmentReport torn = report.segments().get(healthy.size() - 1);
        assertThat(torn.endOffset()).isEqualTo(last.endOffset() - 1);
        assertThat(torn.error().offset()).isEqualTo(last.endOffset() - 1);
        assertThat(torn.error().position()).isEqualTo(lastFrame);
        assertThat(torn.error().description()).contains("torn write after the last record");
        assertThat(report.segments().get(0).offsetIndex()).isEqualTo(IndexHealth.DISAGREES);
        assertThat(report.segments().get(0).indexDetail()).contains("but that record is at position " + FIRST_FRAME);
    }

    @Test
    void indexCutShortAtAnEntryBoundaryIsReportedAsMissingEntries() throws IOException
    {
        final Path offsetIndex = logDir.resolve(String.format("%020d.index", 0));
        final Path timeIndex = logDir.resolve(String.format("%020d.timeindex", 0));
        try (RandomAccessFile offsets = new RandomAccessFile(offsetIndex.toFile(), "rw");
            RandomAccessFile times = new RandomAccessFile(timeIndex.toFile(), "rw"))
        {
            offsets.setLength(16 + 3 * 8);
            times.setLength(16);
        }

        final SegmentReport first = LogInspector.verify(logDir).segments().get(0);

        assertThat(first.offsetIndex()).isEqualTo(IndexHealth.DISAGREES);
        assertThat(first.timeIndex()).isEqualTo(IndexHealth.DISAGREES);
        assertThat(first.indexDetail()).contains("entries are missing").contains("has no entry");
        assertThat(first.error()).isNull();
    }

    @Test
    void truncatedHeaderMakesTheWholeSegmentAnError() throws IOException
    {
        final List<SegmentReport> healthy = LogInspector.verify(logDir).segments();
        final Path file = logDir.resolve(healthy.get(1).file());
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
        {
            raf.setLength(20);
        }

        final VerifyReport report = LogInspector.verify(logDir);

        assertThat(report.firstError().offset()).isEqualTo(healthy.get(1).baseOffset());
        assertThat(report.firstError().position()).isZero();
        assertThat(report.firstError().description()).contains("cannot be a segment");
        assertThat(report.segments().get(1).records()).isZero();
    }

    private interface Printing
    {
        void printTo(PrintStream out);
    }

    private static String print(final Printing printing)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        printing.printTo(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** The file position of the {@code index}-th frame of a segment, walking frame lengths from the header. */
    private static int framePosition(final Path segment, final int index) throws IOException
    {
        final ByteBuffer file = ByteBuffer.wrap(Files.readAllBytes(segment)).order(ByteOrder.LITTLE_ENDIAN);
        int position = FIRST_FRAME;
        for (int i = 0; i < index; i++)
        {
            position += (file.getInt(position) + 7) & ~7;
        }
        return position;
    }

    private static void flipByte(final Path file, final long position) throws IOException
    {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
        {
            raf.seek(position);
            final int old = raf.read();
            raf.seek(position);
            raf.write(old ^ 0x20);
        }
    }

    private static void writeInt(final Path file, final long position, final int value) throws IOException
    {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
        {
            raf.seek(position);
            raf.write(ByteBuffer.allocate(Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN).putInt(value).array());
        }
    }

    /** Every file's bytes and modification time, by path. */
    private Map<Path, String> snapshot() throws IOException
    {
        final Map<Path, String> files = new TreeMap<>();
        try (Stream<Path> paths = Files.list(logDir))
        {
            for (final Path path : paths.toList())
            {
                files.put(path, Base64.getEncoder().encodeToString(Files.readAllBytes(path)) + " modified " +
                    Files.getLastModifiedTime(path));
            }
        }
        return files;
    }
}
