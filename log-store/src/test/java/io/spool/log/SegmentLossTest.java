package io.spool.log;

import io.spool.api.log.RecordDescriptor;
import io.spool.log.TemplateLog.Frame;
import io.spool.log.TemplateLog.SegmentLayout;
import io.spool.log.internal.recovery.LogRecovery;
import io.spool.log.internal.segment.SegmentDescriptor;
import io.spool.testing.SlowTest;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.spool.log.internal.segment.SegmentDescriptor.LOG_SUFFIX;
import static io.spool.log.internal.segment.SegmentDescriptor.fileName;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whole segments lost or unreadable: a deleted, truncated or headerless segment becomes a hole readers pass over, a
 * roll killed half-way leaves the last segment active (see {@link CorruptionCases}).
 */
@SlowTest
class SegmentLossTest extends CorruptionCases
{
    @Test
    void aReaderAskingForAnOffsetInAHoleGetsTheFirstRecordAfterIt()
    {
        final SegmentLayout middle = template.middle();
        final Frame frame = middle.frames.get(2);
        final LogDamage damage = new LogDamage(template);
        damage.flipLogAt(middle, frame.position() + RecordDescriptor.HEADER_LENGTH, 0x01);
        reopenAndCheck(damage, "bad CRC in the middle segment");
        try (LogFixture fx = new LogFixture(caseRoot))
        {
            final PartitionLog log = fx.store.openLog(LOG_NAME, CONFIG);
            final long next = middle.lastOffset() + 1;
            assertThat(log.holes()).singleElement().satisfies(hole ->
                assertThat(hole.toString()).startsWith("offsets " + frame.offset() + ".." + (next - 1) + " (")
                    .contains("cannot be read"));
            try (LogReader reader = log.newReader())
            {
                reader.seek(frame.offset() + 1);
                final List<Long> offsets = new ArrayList<>();
                assertThat(reader.poll(r -> offsets.add(r.offset()), 2)).isEqualTo(2);
                assertThat(offsets).containsExactly(next, next + 1);
                reader.seek(frame.offset() - 1);
                assertThat(reader.next().offset()).isEqualTo(frame.offset() - 1);
                assertThat(reader.next().offset()).as("next() passes over the hole too").isEqualTo(next);
                reader.seek(frame.offset());
                assertThat(reader.skipHeaderFree(1)).as("a pass ending in the hole").isEqualTo(1);
                assertThat(reader.nextOffset()).isEqualTo(frame.offset() + 1);
                assertThat(reader.skipHeaderFree(Integer.MAX_VALUE)).isGreaterThanOrEqualTo((int)(next - frame.offset() - 1));
            }
        }
    }

    @Test
    void aClosedSegmentTruncatedAtAFrameBoundaryLeavesAHoleNoSegmentHolds()
    {
        final SegmentLayout middle = template.middle();
        final Frame frame = middle.frames.get(middle.frames.size() / 2);
        final LogDamage damage = new LogDamage(template);
        damage.truncateLogAt(middle, frame.position());
        final RecoveryReport report = reopenAndCheck(damage, "middle segment cut at a frame boundary");
        assertThat(report.holes()).singleElement().satisfies(hole ->
        {
            assertThat(hole.fromOffset()).isEqualTo(frame.offset());
            assertThat(hole.reason()).isEqualTo("no segment file holds them");
        });
    }

    @Test
    void aDeletedClosedSegmentIsAHole()
    {
        final SegmentLayout middle = template.middle();
        final LogDamage damage = new LogDamage(template);
        damage.deleteLog(middle);
        final RecoveryReport report = reopenAndCheck(damage, "deleted middle segment");
        assertThat(report.holes()).singleElement().satisfies(hole ->
        {
            assertThat(hole.fromOffset()).isEqualTo(middle.baseOffset);
            assertThat(hole.toOffset()).isEqualTo(middle.lastOffset() + 1);
        });
        assertThat(report.truncatedAtOffset()).isEqualTo(-1);
    }

    @Test
    void aClosedSegmentWithAnUnreadableHeaderIsMovedAsideAsAHole()
    {
        final SegmentLayout middle = template.middle();
        final LogDamage damage = new LogDamage(template);
        damage.flipLogAt(middle, SegmentDescriptor.MAGIC_OFFSET + 2, 0x01);
        final RecoveryReport report = reopenAndCheck(damage, "bad magic in a middle segment header");
        assertThat(report.truncatedAtOffset()).isEqualTo(-1);
        assertThat(report.deletedSegments()).isZero();
        assertThat(report.holes()).singleElement().satisfies(hole ->
        {
            assertThat(hole.fromOffset()).isEqualTo(middle.baseOffset);
            assertThat(hole.toOffset()).isEqualTo(middle.lastOffset() + 1);
            assertThat(hole.reason()).contains("unreadable header").contains("moved aside");
        });
        final String name = fileName(middle.baseOffset, LOG_SUFFIX);
        assertThat(caseLogDir().resolve(name)).doesNotExist();
        assertThat(caseLogDir().resolve(name + LogRecovery.DAMAGED_SUFFIX)).exists();
    }

    @Test
    void rollKilledBeforeTheNewSegmentHeaderLeavesTheLastSegmentActive()
    {
        final LogDamage damage = new LogDamage(template);
        damage.addEmptySegmentAfterTheLast();
        final RecoveryReport report = reopenAndCheck(damage, "empty segment file after the last");
        assertThat(report.problems()).anyMatch(p -> p.contains("unreadable header"));
        assertThat(report.deletedSegments()).isEqualTo(1);
    }

    @Test
    void anUnreadableHeaderOfTheFirstSegmentMakesTheLogStartAtTheNext()
    {
        final LogDamage damage = new LogDamage(template);
        damage.flipLogAt(template.segments.get(0), SegmentDescriptor.BASE_OFFSET_OFFSET, 0x07);
        final RecoveryReport report = reopenAndCheck(damage, "bad base offset in the first segment header");
        final long second = template.segments.get(1).baseOffset;
        assertThat(report.holes()).singleElement().satisfies(hole ->
        {
            assertThat(hole.fromOffset()).isZero();
            assertThat(hole.toOffset()).isEqualTo(second);
        });
        assertThat(report.truncatedAtOffset()).isEqualTo(-1);
    }

    @Test
    void anUnreadableHeaderOfTheLastSegmentDeletesItAndTheOneBeforeTakesAppends()
    {
        final LogDamage damage = new LogDamage(template);
        damage.flipLogAt(template.last(), SegmentDescriptor.MAGIC_OFFSET, 0x10);
        final RecoveryReport report = reopenAndCheck(damage, "bad magic in the last segment header");
        assertThat(report.truncatedAtOffset()).isEqualTo(template.last().baseOffset);
        assertThat(report.deletedSegments()).isEqualTo(1);
        assertThat(report.holes()).isEmpty();
    }
}
