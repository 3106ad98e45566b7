package io.spool.log;

import io.spool.log.TemplateLog.Frame;
import io.spool.log.TemplateLog.SegmentLayout;
import io.spool.log.tools.LogInspector;
import io.spool.log.tools.LogInspector.VerifyReport;
import io.spool.testing.SlowTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.SplittableRandom;

import static io.spool.log.internal.segment.SegmentDescriptor.LOG_SUFFIX;
import static io.spool.log.internal.segment.SegmentDescriptor.OFFSET_INDEX_SUFFIX;
import static io.spool.log.internal.segment.SegmentDescriptor.TIME_INDEX_SUFFIX;
import static io.spool.log.internal.segment.SegmentDescriptor.fileName;
import static org.assertj.core.api.Assertions.assertThat;


/**
 * Damaged bytes and torn tails: random damage anywhere keeps the valid prefix of each segment, a torn active tail
 * is cut, and a bad frame in a closed segment becomes a hole while the segments after it stay (see
 * {@link CorruptionCases}).
 */
@SlowTest
class LogCorruptionTest extends CorruptionCases
{
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
    void frameLengthPointingPastTheFileOfAClosedSegmentMakesAHole()
    {
        final SegmentLayout middle = template.middle();
        final Frame frame = middle.frames.get(middle.frames.size() / 2);
        final LogDamage damage = new LogDamage(template);
        damage.overwriteLog(middle, frame.position(), littleEndianInt(1_000_000));
        final RecoveryReport report = reopenAndCheck(damage, "frame length past the file");
        assertThat(report.truncatedAtOffset()).isEqualTo(-1);
        assertThat(report.holes()).singleElement().satisfies(hole ->
        {
            assertThat(hole.fromOffset()).isEqualTo(frame.offset());
            assertThat(hole.toOffset()).isEqualTo(middle.lastOffset() + 1);
            assertThat(hole.reason()).contains("runs past the end of the file");
        });
    }

    @Test
    void badCrcInAClosedSegmentKeepsTheSegmentsAfterIt() throws IOException
    {
        final SegmentLayout middle = template.middle();
        final Frame frame = middle.frames.get(1);
        final LogDamage damage = new LogDamage(template);
        damage.flipLogAt(middle, frame.position() + frame.length() - 1, 0x40);
        final byte[] damagedBytes = damagedCopyOf(damage, middle);
        final RecoveryReport report = reopenAndCheck(damage, "bad CRC in the middle segment");
        final long next = middle.lastOffset() + 1;
        assertThat(report.truncatedAtOffset()).isEqualTo(-1);
        assertThat(report.deletedSegments()).isZero();
        assertThat(report.holes()).singleElement().satisfies(hole ->
        {
            assertThat(hole.fromOffset()).isEqualTo(frame.offset());
            assertThat(hole.toOffset()).isEqualTo(next);
            assertThat(hole.reason()).contains("CRC32C mismatch").contains(fileName(middle.baseOffset, LOG_SUFFIX));
        });
        assertThat(report.problems()).anyMatch(p -> p.contains("readers skip the hole"));
        assertThat(Files.readAllBytes(caseLogDir().resolve(fileName(middle.baseOffset, LOG_SUFFIX))))
            .as("the damaged segment is kept as it was").isEqualTo(damagedBytes);

        final VerifyReport verified = LogInspector.verify(caseLogDir());
        assertThat(verified.holes()).singleElement().satisfies(found ->
        {
            assertThat(found.recorded()).isTrue();
            assertThat(found.hole().fromOffset()).isEqualTo(frame.offset());
        });
        assertThat(verified.isHealthy()).isFalse();
        final ByteArrayOutputStream printed = new ByteArrayOutputStream();
        LogInspector.dump(caseLogDir(), frame.offset() - 1, 3, new PrintStream(printed, true, StandardCharsets.UTF_8));
        assertThat(printed.toString(StandardCharsets.UTF_8).lines()).satisfiesExactly(
            line -> assertThat(line).startsWith("offset=" + (frame.offset() - 1) + " "),
            line -> assertThat(line).startsWith("-- hole: offsets " + frame.offset() + ".." + (next - 1))
                .contains("CRC32C mismatch").contains("going on at offset " + next),
            line -> assertThat(line).startsWith("offset=" + next + " "),
            line -> assertThat(line).startsWith("offset=" + (next + 1) + " "));
    }
}
