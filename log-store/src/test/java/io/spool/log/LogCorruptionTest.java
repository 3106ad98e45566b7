package io.spool.log;

import io.spool.log.SegmentInspection.IndexHealth;
import io.spool.log.TemplateLog.Frame;
import io.spool.log.TemplateLog.SegmentLayout;
import io.spool.log.tools.LogInspector;
import io.spool.log.tools.LogInspector.SegmentReport;
import io.spool.log.tools.LogInspector.VerifyReport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
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
    private static TemplateLog template;

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
        template = new TemplateLog(templateRoot.resolve(LOG_NAME), CONFIG.indexIntervalBytes());
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
        final LogDamage damage = new LogDamage(template);
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
        final LogDamage damage = new LogDamage(template);
        damage.truncateLogAt(last, frame.position() + frame.length() / 2);
        final RecoveryReport report = reopenAndCheck(damage, "half of the last frame");
        assertThat(report.truncatedAtOffset()).isEqualTo(frame.offset());
        assertThat(report.truncatedBytes()).isBetween(1L, (long)frame.length() / 2);
        assertThat(report.deletedSegments()).isZero();
        assertThat(report.problems()).anyMatch(p -> p.contains("runs past the end of the file"));
    }

    @Test
    void tornTailWithoutItsLengthWordIsCut()
    {
        final SegmentLayout last = template.last();
        final Frame frame = last.frames.get(last.frames.size() - 1);
        final LogDamage damage = new LogDamage(template);
        damage.overwriteLog(last, frame.position(), new byte[4]);
        final RecoveryReport report = reopenAndCheck(damage, "last frame without its length");
        assertThat(report.truncatedAtOffset()).isEqualTo(frame.offset());
        assertThat(report.problems()).anyMatch(p -> p.contains("torn write after the last record"));
    }

    @Test
    void frameLengthPointingPastTheFileCutsThere()
    {
        final SegmentLayout middle = template.middle();
        final Frame frame = middle.frames.get(middle.frames.size() / 2);
        final LogDamage damage = new LogDamage(template);
        damage.overwriteLog(middle, frame.position(), littleEndianInt(1_000_000));
        final RecoveryReport report = reopenAndCheck(damage, "frame length past the file");
        assertThat(report.truncatedAtOffset()).isEqualTo(frame.offset());
        assertThat(report.problems()).anyMatch(p -> p.contains("runs past the end of the file"));
    }

    @Test
    void badCrcInTheMiddleSegmentDeletesTheSegmentsAfterIt()
    {
        final SegmentLayout middle = template.middle();
        final Frame frame = middle.frames.get(1);
        final LogDamage damage = new LogDamage(template);
        damage.flipLogAt(middle, frame.position() + frame.length() - 1, 0x40);
        final RecoveryReport report = reopenAndCheck(damage, "bad CRC in the middle segment");
        final int later = template.segments.size() - 1 - template.segments.indexOf(middle);
        assertThat(report.truncatedAtOffset()).isEqualTo(frame.offset());
        assertThat(report.deletedSegments()).isEqualTo(later);
        assertThat(report.problems()).anyMatch(p -> p.contains("CRC32C mismatch"));
        assertThat(caseLogDir().resolve(fileName(template.last().baseOffset, LOG_SUFFIX))).doesNotExist();
    }

    @Test
    void middleSegmentTruncatedAtAFrameBoundaryReportsTheFirstLostOffset()
    {
        final SegmentLayout middle = template.middle();
        final Frame frame = middle.frames.get(middle.frames.size() / 2);
        final LogDamage damage = new LogDamage(template);
        damage.truncateLogAt(middle, frame.position());
        final RecoveryReport report = reopenAndCheck(damage, "middle segment cut at a frame boundary");
        assertThat(report.truncatedAtOffset()).isEqualTo(frame.offset());
        assertThat(report.problems()).anyMatch(p -> p.contains("does not start at offset " + frame.offset()));
    }

    @Test
    void corruptedHeaderOfAMiddleSegmentDropsItAndTheRest()
    {
        final SegmentLayout middle = template.middle();
        final LogDamage damage = new LogDamage(template);
        damage.flipLogAt(middle, SegmentDescriptor.MAGIC_OFFSET + 2, 0x01);
        final RecoveryReport report = reopenAndCheck(damage, "bad magic in a middle segment header");
        assertThat(report.truncatedAtOffset()).isEqualTo(middle.baseOffset);
        assertThat(report.deletedSegments()).isEqualTo(template.segments.size() - template.segments.indexOf(middle));
        assertThat(report.problems()).anyMatch(p -> p.contains("unreadable header"));
    }

    @Test
    void rollKilledBeforeTheNewSegmentHeaderLeavesTheLastSegmentActive()
    {
        final LogDamage damage = new LogDamage(template);
        damage.addEmptySegmentAfterTheLast();
        final RecoveryReport report = reopenAndCheck(damage, "empty segment file after the last");
        assertThat(report.problems()).anyMatch(p -> p.contains("unreadable header"));
    }

    @Test
    void corruptedHeaderOfTheFirstSegmentLeavesAnEmptyLog()
    {
        final LogDamage damage = new LogDamage(template);
        damage.flipLogAt(template.segments.get(0), SegmentDescriptor.BASE_OFFSET_OFFSET, 0x07);
        final RecoveryReport report = reopenAndCheck(damage, "bad base offset in the first segment header");
        assertThat(report.truncatedAtOffset()).isZero();
        assertThat(report.deletedSegments()).isEqualTo(template.segments.size());
    }

    @Test
    void missingIndexesAreRebuiltAsTheyWere() throws IOException
    {
        final SegmentLayout middle = template.middle();
        final LogDamage damage = new LogDamage(template);
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
        final LogDamage damage = new LogDamage(template);
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
    private RecoveryReport reopenAndCheck(final LogDamage damage, final String what)
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
    private void assertInspectorPredictsRecovery(final LogDamage damage, final long expectedEnd, final String what)
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

    private static void assertIndexHealth(final IndexHealth health, final String index, final LogDamage damage,
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
                if (r.offset() != next[0] || !Arrays.equals(stored, template.frame(r.offset()).bytes()))
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

    private static void assertReport(final RecoveryReport report, final LogDamage damage, final long expectedEnd,
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

}
