package io.spool.log;

import io.spool.log.SegmentInspection.IndexHealth;
import io.spool.log.tools.LogInspector;
import io.spool.log.tools.LogInspector.SegmentReport;
import io.spool.log.tools.LogInspector.VerifyReport;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.stream.LongStream;

import static io.spool.log.SegmentDescriptor.LOG_SUFFIX;
import static io.spool.log.SegmentDescriptor.OFFSET_INDEX_SUFFIX;
import static io.spool.log.SegmentDescriptor.TIME_INDEX_SUFFIX;
import static io.spool.log.SegmentDescriptor.fileName;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Damages a closed log on disk (flipped bytes, truncated or deleted files, garbage indexes), reopens it and checks
 * that recovery keeps every record before the first damaged one byte for byte, cuts exactly there, rebuilds the
 * damaged indexes, reports what it did, and leaves a log that takes new appends and reopens clean.
 * <p>
 * The template log is written once; each case damages a copy. Expectations come from the template's layout: a
 * damaged byte inside a frame (or a segment header field) loses that record (or the whole segment) and all after
 * it; a damaged byte in padding or reserved space loses nothing.
 */
class LogCorruptionTest
{
    private static final String LOG_NAME = "t/0";
    private static final LogConfig CONFIG = LogFixture.smallSegments(4096);
    private static final int TEMPLATE_RECORDS = 180;
    private static final long FIRST_TIMESTAMP = 5_000_000L;

    @TempDir
    static Path templateRoot;
    private static Template template;

    @TempDir
    Path caseRoot;

    @BeforeAll
    static void writeTemplate()
    {
        try (LogFixture fx = new LogFixture(templateRoot))
        {
            final PartitionLog log = fx.store.openLog(LOG_NAME, CONFIG);
            final SplittableRandom random = new SplittableRandom(42);
            for (int i = 0; i < TEMPLATE_RECORDS; i++)
            {
                fx.clock.update(FIRST_TIMESTAMP + i * 3L);
                final byte[] value = new byte[10 + random.nextInt(110)];
                Arrays.fill(value, (byte)('a' + i % 26));
                final byte[] headers = i % 7 == 0 ? HeadersCodec.encode(Map.of("n", LogFixture.bytes("h" + i))) : null;
                final byte[] key = i % 3 == 0 ? null : LogFixture.bytes("key-" + i);
                fx.store.newProducer().appendAndWait(log, key, headers, value);
            }
        }
        template = new Template(templateRoot.resolve(LOG_NAME));
        assertThat(template.segments).as("segments in the template").hasSizeGreaterThanOrEqualTo(5);
        assertThat(template.last().frames).as("records in the active segment").isNotEmpty();
    }

    static LongStream seeds()
    {
        return LongStream.range(0, 100);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void randomDamageKeepsTheValidPrefix(final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final Damage damage = new Damage();
        final int mutations = 1 + random.nextInt(3);
        for (int i = 0; i < mutations; i++)
        {
            final SegmentLayout segment = template.segments.get(random.nextInt(template.segments.size()));
            final String index = random.nextBoolean() ? OFFSET_INDEX_SUFFIX : TIME_INDEX_SUFFIX;
            switch (random.nextInt(9))
            {
                case 0, 1, 2 -> damage.flipLog(segment, random);
                case 3 -> damage.truncateLog(segment, random);
                case 4 -> damage.flipIndex(segment, index, random);
                case 5 -> damage.truncateIndex(segment, index, random);
                case 6 -> damage.deleteIndex(segment, index);
                case 7 -> damage.garbageIndex(segment, index, random);
                default -> damage.deleteLog(segment);
            }
        }
        reopenAndCheck(damage, "seed " + seed + ": " + damage.applied);
    }

    @Test
    void tornTailHalfAFrameIsCut()
    {
        final SegmentLayout last = template.last();
        final Frame frame = last.frames.get(last.frames.size() - 1);
        final Damage damage = new Damage();
        damage.truncateLogAt(last, frame.position + frame.length / 2);
        final RecoveryReport report = reopenAndCheck(damage, "half of the last frame");
        assertThat(report.truncatedAtOffset()).isEqualTo(frame.offset);
        assertThat(report.truncatedBytes()).isBetween(1L, (long)frame.length / 2);
        assertThat(report.deletedSegments()).isZero();
        assertThat(report.problems()).anyMatch(p -> p.contains("runs past the end of the file"));
    }

    @Test
    void tornTailWithoutItsLengthWordIsCut()
    {
        final SegmentLayout last = template.last();
        final Frame frame = last.frames.get(last.frames.size() - 1);
        final Damage damage = new Damage();
        damage.overwriteLog(last, frame.position, new byte[4]);
        final RecoveryReport report = reopenAndCheck(damage, "last frame without its length");
        assertThat(report.truncatedAtOffset()).isEqualTo(frame.offset);
        assertThat(report.problems()).anyMatch(p -> p.contains("torn write after the last record"));
    }

    @Test
    void frameLengthPointingPastTheFileCutsThere()
    {
        final SegmentLayout middle = template.middle();
        final Frame frame = middle.frames.get(middle.frames.size() / 2);
        final Damage damage = new Damage();
        damage.overwriteLog(middle, frame.position, littleEndianInt(1_000_000));
        final RecoveryReport report = reopenAndCheck(damage, "frame length past the file");
        assertThat(report.truncatedAtOffset()).isEqualTo(frame.offset);
        assertThat(report.problems()).anyMatch(p -> p.contains("runs past the end of the file"));
    }

    @Test
    void badCrcInTheMiddleSegmentDeletesTheSegmentsAfterIt()
    {
        final SegmentLayout middle = template.middle();
        final Frame frame = middle.frames.get(1);
        final Damage damage = new Damage();
        damage.flipLogAt(middle, frame.position + frame.length - 1, 0x40);
        final RecoveryReport report = reopenAndCheck(damage, "bad CRC in the middle segment");
        final int later = template.segments.size() - 1 - template.segments.indexOf(middle);
        assertThat(report.truncatedAtOffset()).isEqualTo(frame.offset);
        assertThat(report.deletedSegments()).isEqualTo(later);
        assertThat(report.problems()).anyMatch(p -> p.contains("CRC32C mismatch"));
        assertThat(caseLogDir().resolve(fileName(template.last().baseOffset, LOG_SUFFIX))).doesNotExist();
    }

    @Test
    void middleSegmentTruncatedAtAFrameBoundaryReportsTheFirstLostOffset()
    {
        final SegmentLayout middle = template.middle();
        final Frame frame = middle.frames.get(middle.frames.size() / 2);
        final Damage damage = new Damage();
        damage.truncateLogAt(middle, frame.position);
        final RecoveryReport report = reopenAndCheck(damage, "middle segment cut at a frame boundary");
        assertThat(report.truncatedAtOffset()).isEqualTo(frame.offset);
        assertThat(report.problems()).anyMatch(p -> p.contains("does not start at offset " + frame.offset));
    }

    @Test
    void corruptedHeaderOfAMiddleSegmentDropsItAndTheRest()
    {
        final SegmentLayout middle = template.middle();
        final Damage damage = new Damage();
        damage.flipLogAt(middle, SegmentDescriptor.MAGIC_OFFSET + 2, 0x01);
        final RecoveryReport report = reopenAndCheck(damage, "bad magic in a middle segment header");
        assertThat(report.truncatedAtOffset()).isEqualTo(middle.baseOffset);
        assertThat(report.deletedSegments()).isEqualTo(template.segments.size() - template.segments.indexOf(middle));
        assertThat(report.problems()).anyMatch(p -> p.contains("unreadable header"));
    }

    @Test
    void rollKilledBeforeTheNewSegmentHeaderLeavesTheLastSegmentActive()
    {
        final Damage damage = new Damage();
        damage.addEmptySegmentAfterTheLast();
        final RecoveryReport report = reopenAndCheck(damage, "empty segment file after the last");
        assertThat(report.problems()).anyMatch(p -> p.contains("unreadable header"));
    }

    @Test
    void corruptedHeaderOfTheFirstSegmentLeavesAnEmptyLog()
    {
        final Damage damage = new Damage();
        damage.flipLogAt(template.segments.get(0), SegmentDescriptor.BASE_OFFSET_OFFSET, 0x07);
        final RecoveryReport report = reopenAndCheck(damage, "bad base offset in the first segment header");
        assertThat(report.truncatedAtOffset()).isZero();
        assertThat(report.deletedSegments()).isEqualTo(template.segments.size());
    }

    @Test
    void missingIndexesAreRebuiltAsTheyWere() throws IOException
    {
        final SegmentLayout middle = template.middle();
        final Damage damage = new Damage();
        damage.deleteIndex(middle, OFFSET_INDEX_SUFFIX);
        damage.deleteIndex(middle, TIME_INDEX_SUFFIX);
        final RecoveryReport report = reopenAndCheck(damage, "missing indexes");
        assertThat(report.truncatedAtOffset()).isEqualTo(-1);
        assertThat(report.rebuiltIndexes()).isEqualTo(2);
        for (final String suffix : List.of(OFFSET_INDEX_SUFFIX, TIME_INDEX_SUFFIX))
        {
            final String name = fileName(middle.baseOffset, suffix);
            assertThat(Files.readAllBytes(templateLogDir().resolve(name)))
                .isEqualTo(Files.readAllBytes(caseLogDir().resolve(name)));
        }
    }

    @Test
    void garbageIndexIsRebuiltAsItWas() throws IOException
    {
        final SegmentLayout middle = template.middle();
        final Damage damage = new Damage();
        damage.garbageIndex(middle, OFFSET_INDEX_SUFFIX, new SplittableRandom(7));
        final RecoveryReport report = reopenAndCheck(damage, "garbage offset index");
        assertThat(report.rebuiltIndexes()).isEqualTo(1);
        assertThat(report.problems()).containsExactly("rebuilt " + fileName(middle.baseOffset, OFFSET_INDEX_SUFFIX));
        final String name = fileName(middle.baseOffset, OFFSET_INDEX_SUFFIX);
        assertThat(Files.readAllBytes(templateLogDir().resolve(name)))
            .isEqualTo(Files.readAllBytes(caseLogDir().resolve(name)));
    }

    /**
     * Copies the template, applies the damage, reopens, and checks the outcome against what the damage predicts.
     */
    private RecoveryReport reopenAndCheck(final Damage damage, final String what)
    {
        copyTemplate();
        damage.applyTo(caseLogDir());
        final long expectedEnd = damage.firstLostOffset();
        assertInspectorPredictsRecovery(damage, expectedEnd, what + "; inspector");
        final RecoveryReport report;
        try (LogFixture fx = new LogFixture(caseRoot))
        {
            final PartitionLog log = fx.store.openLog(LOG_NAME, CONFIG);
            report = log.recoveryReport();
            final String context = what + "; " + report;
            assertThat(log.startOffset()).as(context).isZero();
            assertThat(log.endOffset()).as(context).isEqualTo(expectedEnd);
            assertSurvivorsIdentical(log, context);
            assertRandomSeeksLand(log, new SplittableRandom(expectedEnd), context);
            assertReport(report, damage, expectedEnd, context);

            final List<String> appended = new ArrayList<>();
            final List<CompletableFuture<Long>> offsets = new ArrayList<>();
            final LogProducer producer = fx.store.newProducer();
            // Enough bytes to roll the recovered active segment at least once.
            for (int i = 0; i < 24; i++)
            {
                final String value = "after-recovery-" + i + "-" + "x".repeat(150 + i);
                offsets.add(producer.append(log, null, null, LogFixture.bytes(value)));
                appended.add((expectedEnd + i) + ":null:" + value);
            }
            for (int i = 0; i < offsets.size(); i++)
            {
                assertThat(offsets.get(i).join()).as(context).isEqualTo(expectedEnd + i);
            }
            assertThat(LogFixture.readAll(log, expectedEnd)).as(context).isEqualTo(appended);

            fx.reopen();
            final PartitionLog reopened = fx.store.openLog(LOG_NAME, CONFIG);
            assertThat(reopened.recoveryReport().isClean()).as("second reopen after %s: %s", context,
                reopened.recoveryReport()).isTrue();
            assertThat(reopened.endOffset()).isEqualTo(expectedEnd + appended.size());
            assertThat(LogFixture.readAll(reopened, expectedEnd)).as(context).isEqualTo(appended);
        }
        return report;
    }

    /**
     * The read-only inspector must find the first error exactly where recovery is about to cut, and flag the indexes
     * it is about to rebuild.
     */
    private void assertInspectorPredictsRecovery(final Damage damage, final long expectedEnd, final String what)
    {
        final VerifyReport verified = LogInspector.verify(caseLogDir());
        final String context = what + ": " + verified.segments();
        if (expectedEnd < template.endOffset && damage.lossDetectable)
        {
            assertThat(verified.firstError()).as(context).isNotNull();
            assertThat(verified.firstError().offset()).as(context).isEqualTo(expectedEnd);
        }
        else if (expectedEnd == template.endOffset && !damage.hasJunkAfterTheLastRecord() &&
            !damage.emptySegmentAfterTheLast)
        {
            assertThat(verified.firstError()).as(context).isNull();
        }
        for (final SegmentReport segment : verified.segments())
        {
            if (segment.endOffset() >= expectedEnd || segment.baseOffset() == template.last().baseOffset)
            {
                break;
            }
            assertIndexHealth(segment.offsetIndex(), fileName(segment.baseOffset(), OFFSET_INDEX_SUFFIX), damage,
                context);
            assertIndexHealth(segment.timeIndex(), fileName(segment.baseOffset(), TIME_INDEX_SUFFIX), damage, context);
        }
    }

    private static void assertIndexHealth(final IndexHealth health, final String index, final Damage damage,
        final String context)
    {
        if (!damage.damagedIndexes.contains(index))
        {
            assertThat(health).as(index + " in " + context).isEqualTo(IndexHealth.OK);
        }
        else if (!damage.shortenedIndexes.contains(index))
        {
            assertThat(health).as(index + " in " + context).isNotEqualTo(IndexHealth.OK);
        }
    }

    private static void assertSurvivorsIdentical(final PartitionLog log, final String context)
    {
        final List<String> mismatches = new ArrayList<>();
        final long[] next = {0};
        try (LogReader reader = log.newReader())
        {
            while (reader.poll(r ->
            {
                final byte[] stored = new byte[r.frameLength()];
                r.buffer().getBytes(r.frameOffset(), stored);
                if (r.offset() != next[0] || !Arrays.equals(stored, template.frame(r.offset()).bytes))
                {
                    mismatches.add("offset " + r.offset() + " (expected " + next[0] + ")");
                }
                next[0] = r.offset() + 1;
            }, 500) > 0)
            {
                continue;
            }
        }
        assertThat(mismatches).as(context).isEmpty();
        assertThat(next[0]).as(context).isEqualTo(log.endOffset());
    }

    /** Seeks go through the (possibly rebuilt) offset index, lookups by time through the time index. */
    private static void assertRandomSeeksLand(final PartitionLog log, final SplittableRandom random,
        final String context)
    {
        if (log.endOffset() == 0)
        {
            return;
        }
        try (LogReader reader = log.newReader())
        {
            for (int i = 0; i < 10; i++)
            {
                final long offset = random.nextLong(log.endOffset());
                reader.seek(offset);
                final long[] found = {-1};
                assertThat(reader.poll(r -> found[0] = r.offset(), 1)).as(context).isEqualTo(1);
                assertThat(found[0]).as(context).isEqualTo(offset);
                assertThat(log.offsetForTimestamp(FIRST_TIMESTAMP + offset * 3L)).as(context).isEqualTo(offset);
            }
        }
    }

    private static void assertReport(final RecoveryReport report, final Damage damage, final long expectedEnd,
        final String context)
    {
        if (expectedEnd < template.endOffset && damage.lossDetectable)
        {
            assertThat(report.truncatedAtOffset()).as(context).isEqualTo(expectedEnd);
            assertThat(report.deletedSegments()).as(context).isEqualTo(damage.expectedDeletedSegments());
        }
        else if (expectedEnd == template.endOffset)
        {
            final boolean cutAfterTheEnd = damage.hasJunkAfterTheLastRecord() || damage.emptySegmentAfterTheLast;
            assertThat(report.truncatedAtOffset()).as(context).isEqualTo(cutAfterTheEnd ? template.endOffset : -1);
            assertThat(report.deletedSegments()).as(context).isEqualTo(damage.emptySegmentAfterTheLast ? 1 : 0);
        }
        for (final SegmentLayout segment : template.segments)
        {
            if (segment.lastOffset() >= expectedEnd)
            {
                break;
            }
            for (final String suffix : List.of(OFFSET_INDEX_SUFFIX, TIME_INDEX_SUFFIX))
            {
                final String rebuilt = "rebuilt " + fileName(segment.baseOffset, suffix);
                if (damage.damagedIndexes.contains(fileName(segment.baseOffset, suffix)))
                {
                    assertThat(report.problems()).as(context).contains(rebuilt);
                }
                else if (!damage.emptySegmentAfterTheLast)
                {
                    // (Closing the active segment on the way trims its pre-allocated indexes to their entries.)
                    assertThat(report.problems()).as(context).doesNotContain(rebuilt);
                }
            }
        }
        assertThat(report.isClean()).as(context).isEqualTo(report.problems().isEmpty());
    }

    private void copyTemplate()
    {
        final Path target = caseLogDir();
        try
        {
            Files.createDirectories(target);
            try (DirectoryStream<Path> files = Files.newDirectoryStream(templateLogDir()))
            {
                for (final Path file : files)
                {
                    Files.copy(file, target.resolve(file.getFileName()));
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private Path caseLogDir()
    {
        return caseRoot.resolve(LOG_NAME);
    }

    private static Path templateLogDir()
    {
        return templateRoot.resolve(LOG_NAME);
    }

    private static byte[] littleEndianInt(final int value)
    {
        return ByteBuffer.allocate(Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN).putInt(value).array();
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

        SegmentLayout(final Path dir, final long baseOffset)
        {
            this.baseOffset = baseOffset;
            final byte[] file = read(dir.resolve(fileName(baseOffset, LOG_SUFFIX)));
            this.fileBytes = file.length;
            final UnsafeBuffer buffer = new UnsafeBuffer(file);
            final SegmentScanner.Result scan = new SegmentScanner().scan(buffer, ByteBuffer.wrap(file), file.length,
                baseOffset, CONFIG.indexIntervalBytes());
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
            return last.position + RecordDescriptor.align(last.length);
        }

        /** Bytes of an index file that recovery compares; the active segment's files run on with zeroes. */
        int meaningfulIndexBytes(final String suffix)
        {
            return suffix.equals(OFFSET_INDEX_SUFFIX) ? offsetIndexBytes : timeIndexBytes;
        }
    }

    /** The template log: its segments in offset order. */
    static final class Template
    {
        final List<SegmentLayout> segments = new ArrayList<>();
        final long endOffset;

        Template(final Path dir)
        {
            for (final long base : LogRecovery.segmentBases(dir))
            {
                segments.add(new SegmentLayout(dir, base));
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
    }

    /**
     * A list of file operations to apply to a copy of the template, and what they predict: the first offset lost,
     * which segment headers and indexes were hit, and whether recovery can notice the loss at all.
     */
    static final class Damage
    {
        final List<String> applied = new ArrayList<>();
        final Set<String> damagedIndexes = new HashSet<>();
        /** Indexes cut at an entry boundary: what is left still points right, the inspector may call it ok. */
        final Set<String> shortenedIndexes = new HashSet<>();
        private final List<FileOperation> operations = new ArrayList<>();
        private final Set<Long> damagedHeaders = new HashSet<>();
        private final int[] currentLogBytes = new int[template.segments.size()];
        private final int[] currentIndexBytes = new int[template.segments.size() * 2];
        private long firstLost = Long.MAX_VALUE;
        /** Changed bytes in the zero-filled space after the active segment's last record. */
        private final Set<Integer> junkAfterTheLastRecord = new HashSet<>();
        boolean lossDetectable = true;
        boolean emptySegmentAfterTheLast;

        Damage()
        {
            for (int i = 0; i < template.segments.size(); i++)
            {
                final SegmentLayout segment = template.segments.get(i);
                currentLogBytes[i] = segment.fileBytes;
                currentIndexBytes[2 * i] = size(OFFSET_INDEX_SUFFIX, segment);
                currentIndexBytes[2 * i + 1] = size(TIME_INDEX_SUFFIX, segment);
            }
        }

        private static int size(final String suffix, final SegmentLayout segment)
        {
            return (int)read(templateRoot.resolve(LOG_NAME).resolve(fileName(segment.baseOffset, suffix))).length;
        }

        boolean hasJunkAfterTheLastRecord()
        {
            return !junkAfterTheLastRecord.isEmpty();
        }

        long firstLostOffset()
        {
            return Math.min(firstLost, template.endOffset);
        }

        int expectedDeletedSegments()
        {
            int deleted = 0;
            for (final SegmentLayout segment : template.segments)
            {
                final boolean exists = currentLogBytes[template.segments.indexOf(segment)] >= 0;
                if (exists && segment.baseOffset > firstLost ||
                    (segment.baseOffset == firstLost && damagedHeaders.contains(segment.baseOffset)))
                {
                    deleted++;
                }
            }
            return deleted;
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
                if (frame.position + frame.length > length)
                {
                    // A truncation that leaves no byte of the lost frame in the last segment looks like a log that
                    // simply ended there: nothing is left to tell recovery.
                    if (frame.position >= length && segment == template.last())
                    {
                        loseSilently(frame.offset);
                        return;
                    }
                    lose(frame.offset);
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
                loseSilently(segment.baseOffset);
            }
            else
            {
                lose(segment.baseOffset);
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

        private static int indexSlot(final SegmentLayout segment, final String suffix)
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
                if (position >= frame.position && position < frame.position + frame.length)
                {
                    lose(frame.offset);
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
            lose(segment.baseOffset);
        }

        /** A loss recovery cannot see: the log just looks shorter. */
        private void loseSilently(final long offset)
        {
            if (offset < firstLost)
            {
                lossDetectable = false;
                firstLost = offset;
            }
        }

        private void lose(final long offset)
        {
            if (offset < firstLost)
            {
                lossDetectable = true;
                firstLost = offset;
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
    }

    @FunctionalInterface
    interface FileOperation
    {
        void apply(Path dir) throws IOException;
    }

    private static byte[] read(final Path file)
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
