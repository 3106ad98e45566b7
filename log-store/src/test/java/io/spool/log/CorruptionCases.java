package io.spool.log;

import io.spool.api.log.HeadersCodec;
import io.spool.api.log.LogConfig;
import io.spool.log.TemplateLog.SegmentLayout;
import io.spool.log.internal.recovery.SegmentInspection.IndexHealth;
import io.spool.log.tools.LogInspector.SegmentReport;
import io.spool.log.tools.LogInspector.VerifyReport;
import io.spool.log.tools.LogInspector;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

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

import static io.spool.log.internal.segment.SegmentDescriptor.LOG_SUFFIX;
import static io.spool.log.internal.segment.SegmentDescriptor.OFFSET_INDEX_SUFFIX;
import static io.spool.log.internal.segment.SegmentDescriptor.TIME_INDEX_SUFFIX;
import static io.spool.log.internal.segment.SegmentDescriptor.fileName;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Damages a closed log on disk (flipped bytes, truncated or deleted files, garbage indexes), reopens it and checks
 * that recovery keeps every undamaged record byte for byte: a closed segment keeps its records before the damage
 * and every later segment stays, the lost offsets becoming a reported hole that readers skip; only the active
 * segment is cut at its first damaged record. Recovery rebuilds the damaged indexes, reports what it did, and leaves
 * a log that takes new appends and reopens clean, its holes still known.
 * <p>
 * The template log is written once; each case damages a copy. Expectations come from the template's layout
 * ({@link LogDamage#expect()}): a damaged byte inside a frame loses that record and the rest of its segment, a
 * damaged segment header loses the whole segment; a damaged byte in padding or reserved space loses nothing.
 * <p>
 * What the cases share: the template, reopening a damaged copy, and the checks every case makes. The cases are
 * split by what they damage: {@link LogCorruptionTest} (bytes and torn tails), {@link SegmentLossTest} (whole
 * segments and their headers), {@link IndexDamageTest} (indexes).
 */
abstract class CorruptionCases
{
    static final String LOG_NAME = "t/0";
    static final LogConfig CONFIG = LogFixture.smallSegments(4096);
    static final int TEMPLATE_RECORDS = 180;
    static final long FIRST_TIMESTAMP = 5_000_000L;

    @TempDir
    static Path templateRoot;
    static TemplateLog template;

    @TempDir
    Path caseRoot;
    @TempDir
    Path scratchRoot;

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


    /**
     * Copies the template, applies the damage, reopens, and checks the outcome against what the damage predicts.
     */
    RecoveryReport reopenAndCheck(final LogDamage damage, final String what)
    {
        copyTemplate();
        damage.applyTo(caseLogDir());
        final LogDamage.Expected expected = damage.expect();
        assertInspectorPredictsRecovery(damage, expected, what + "; inspector");
        final RecoveryReport report;
        try (LogFixture fx = new LogFixture(caseRoot))
        {
            final PartitionLog log = fx.store.openLog(LOG_NAME, CONFIG);
            report = log.recoveryReport();
            final String context = what + "; " + report;
            assertThat(log.startOffset()).as(context).isEqualTo(expected.start);
            assertThat(log.endOffset()).as(context).isEqualTo(expected.end);
            assertSurvivorsIdentical(log, expected, context);
            assertRandomSeeksLand(log, expected, new SplittableRandom(expected.end), context);
            assertReport(report, damage, expected, context);
            assertThat(LogInspector.verify(caseLogDir()).holes()).as(context)
                .allSatisfy(found -> assertThat(found.recorded()).isTrue())
                .extracting(found -> found.hole().fromOffset() + ".." + found.hole().toOffset())
                .containsExactlyElementsOf(ranges(expected.holes.stream()
                    .filter(hole -> hole[1] > expected.start).toList()));

            final long expectedEnd = expected.end;
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
            assertThat(reopened.holes()).as("holes known after a second reopen, " + context)
                .extracting(hole -> hole.fromOffset() + ".." + hole.toOffset())
                .containsExactlyElementsOf(ranges(expected.holes.stream()
                    .filter(hole -> hole[1] > expected.start).toList()));
        }
        return report;
    }

    private static List<String> ranges(final List<long[]> ranges)
    {
        return ranges.stream().map(range -> range[0] + ".." + range[1]).toList();
    }

    /** The damaged segment file as the damage leaves it, before recovery looks at it. */
    byte[] damagedCopyOf(final LogDamage damage, final SegmentLayout segment) throws IOException
    {
        final Path scratch = Files.createDirectories(scratchRoot.resolve("damaged"));
        for (final String suffix : List.of(LOG_SUFFIX, OFFSET_INDEX_SUFFIX, TIME_INDEX_SUFFIX))
        {
            for (final SegmentLayout each : template.segments)
            {
                Files.copy(templateLogDir().resolve(fileName(each.baseOffset, suffix)),
                    scratch.resolve(fileName(each.baseOffset, suffix)));
            }
        }
        damage.applyTo(scratch);
        return Files.readAllBytes(scratch.resolve(fileName(segment.baseOffset, LOG_SUFFIX)));
    }

    /**
     * The read-only inspector must find the first damage exactly where recovery is about to cut or make a hole, and
     * flag the indexes it is about to rebuild.
     */
    private void assertInspectorPredictsRecovery(final LogDamage damage, final LogDamage.Expected expected,
        final String what)
    {
        final VerifyReport verified = LogInspector.verify(caseLogDir());
        final String context = what + ": " + verified.segments() + " " + verified.holes();
        final long firstLoss = expected.firstVisibleLoss();
        if (firstLoss >= 0)
        {
            assertThat(verified.firstError()).as(context).isNotNull();
            assertThat(verified.firstError().offset()).as(context).isEqualTo(firstLoss);
        }
        else if (expected.end == template.endOffset && expected.holes.isEmpty())
        {
            assertThat(verified.firstError()).as(context).isNull();
        }
        for (final SegmentReport segment : verified.segments())
        {
            if (!expected.intactSegments.contains(segment.baseOffset()))
            {
                continue;
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

    /** Every record the damage spared reads back byte for byte, in order, and nothing else does. */
    private static void assertSurvivorsIdentical(final PartitionLog log, final LogDamage.Expected expected,
        final String context)
    {
        final List<Long> read = new ArrayList<>();
        final List<String> mismatches = new ArrayList<>();
        try (LogReader reader = log.newReader())
        {
            while (reader.poll(r ->
            {
                final byte[] stored = new byte[r.frameLength()];
                r.buffer().getBytes(r.frameOffset(), stored);
                read.add(r.offset());
                if (!Arrays.equals(stored, template.frame(r.offset()).bytes()))
                {
                    mismatches.add("offset " + r.offset());
                }
            }, 500) > 0)
            {
                continue;
            }
            assertThat(reader.nextOffset()).as(context).isEqualTo(log.endOffset());
        }
        final List<Long> survivors = new ArrayList<>();
        for (final long[] range : expected.readable)
        {
            for (long offset = range[0]; offset < range[1]; offset++)
            {
                survivors.add(offset);
            }
        }
        assertThat(mismatches).as(context).isEmpty();
        assertThat(read).as(context).isEqualTo(survivors);
    }

    /**
     * Seeks go through the (possibly rebuilt) offset index, lookups by time through the time index; one into a hole
     * lands on the first record after it.
     */
    private static void assertRandomSeeksLand(final PartitionLog log, final LogDamage.Expected expected,
        final SplittableRandom random, final String context)
    {
        if (log.endOffset() == log.startOffset())
        {
            return;
        }
        try (LogReader reader = log.newReader())
        {
            for (int i = 0; i < 10; i++)
            {
                final long offset = log.startOffset() + random.nextLong(log.endOffset() - log.startOffset());
                reader.seek(offset);
                final long[] found = {-1};
                final long landing = expected.readableFrom(offset);
                assertThat(reader.poll(r -> found[0] = r.offset(), 1)).as(context).isEqualTo(landing < 0 ? 0 : 1);
                assertThat(found[0]).as(context).isEqualTo(landing);
                assertThat(log.offsetForTimestamp(FIRST_TIMESTAMP + offset * 3L)).as(context)
                    .isEqualTo(landing < 0 ? log.endOffset() : landing);
            }
        }
    }

    private static void assertReport(final RecoveryReport report, final LogDamage damage,
        final LogDamage.Expected expected, final String context)
    {
        assertThat(report.truncatedAtOffset()).as(context).isEqualTo(expected.truncatedAt);
        assertThat(report.deletedSegments()).as(context).isEqualTo(expected.deletedSegments);
        assertThat(report.holes()).as(context).extracting(hole -> hole.fromOffset() + ".." + hole.toOffset())
            .containsExactlyElementsOf(ranges(expected.holes));
        assertThat(report.holes()).as(context).allSatisfy(hole -> assertThat(hole.reason()).isNotBlank());
        for (final SegmentLayout segment : template.segments)
        {
            if (!expected.intactSegments.contains(segment.baseOffset))
            {
                continue;
            }
            for (final String suffix : List.of(OFFSET_INDEX_SUFFIX, TIME_INDEX_SUFFIX))
            {
                final String rebuilt = "rebuilt " + fileName(segment.baseOffset, suffix);
                if (damage.damagedIndexes.contains(fileName(segment.baseOffset, suffix)))
                {
                    assertThat(report.problems()).as(context).contains(rebuilt);
                }
                else
                {
                    assertThat(report.problems()).as(context).doesNotContain(rebuilt);
                }
            }
        }
        assertThat(report.isClean()).as(context).isEqualTo(report.problems().isEmpty());
    }

    void copyTemplate()
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

    Path caseLogDir()
    {
        return caseRoot.resolve(LOG_NAME);
    }

    static Path templateLogDir()
    {
        return templateRoot.resolve(LOG_NAME);
    }

    static byte[] littleEndianInt(final int value)
    {
        return ByteBuffer.allocate(Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN).putInt(value).array();
    }
}
