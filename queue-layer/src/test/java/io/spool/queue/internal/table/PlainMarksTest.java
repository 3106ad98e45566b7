package io.spool.queue.internal.table;

import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class PlainMarksTest
{
    @Test
    void aRunMarkedPlainCoversExactlyItsOffsetsAcrossWords()
    {
        final PlainMarks marks = new PlainMarks();
        marks.mark(59, false, 0);
        marks.markPlain(60, 70, 0);
        marks.mark(130, false, 0);

        assertThat(marks.isPlain(59)).isFalse();
        for (long offset = 60; offset < 130; offset++)
        {
            assertThat(marks.isPlain(offset)).as("offset %d", offset).isTrue();
        }
        assertThat(marks.isPlain(130)).isFalse();
    }

    @Test
    void aRunPastTheRingGrowsItAndKeepsTheMarksFromTheCursorOn()
    {
        final PlainMarks marks = new PlainMarks();
        marks.markPlain(0, 10, 0);
        marks.mark(10, false, 0);
        marks.markPlain(11, 3_000, 5);

        for (long offset = 5; offset < 10; offset++)
        {
            assertThat(marks.isPlain(offset)).as("offset %d", offset).isTrue();
        }
        assertThat(marks.isPlain(10)).isFalse();
        for (long offset = 11; offset < 3_011; offset++)
        {
            assertThat(marks.isPlain(offset)).as("offset %d", offset).isTrue();
        }
    }

    @Test
    void anOffsetMarkedNotPlainAfterItsSlotHeldAPlainRunReadsNotPlain()
    {
        final PlainMarks marks = new PlainMarks();
        marks.markPlain(0, 1_024, 0);
        marks.mark(1_024, false, 1_000);
        marks.markPlain(1_025, 64, 1_000);

        assertThat(marks.isPlain(1_023)).isTrue();
        assertThat(marks.isPlain(1_024)).isFalse();
        assertThat(marks.isPlain(1_088)).isTrue();
    }

    @Test
    void aPlainRunIsCountedAcrossWordsUpToTheFirstOffsetNotPlainOrTheEnd()
    {
        final PlainMarks marks = new PlainMarks();
        marks.markPlain(0, 200, 0);
        marks.mark(200, false, 0);
        marks.markPlain(201, 10, 0);

        assertThat(marks.plainRunLength(3, 1_000)).isEqualTo(197);
        assertThat(marks.plainRunLength(3, 130)).isEqualTo(127);
        assertThat(marks.plainRunLength(63, 65)).isEqualTo(2);
        assertThat(marks.plainRunLength(200, 211)).isZero();
        assertThat(marks.plainRunLength(201, 211)).isEqualTo(10);
        assertThat(marks.plainRunLength(5, 5)).isZero();
    }

    /** Against what was marked, with the cursor moving on and the ring growing under the marks. */
    @Test
    void plainRunsAgreeWithWhatWasMarked()
    {
        final Random random = new Random(20261130);
        final PlainMarks marks = new PlainMarks();
        final BitSet marked = new BitSet();
        long cursor = 0;
        int next = 0;
        for (int step = 0; step < 2_000; step++)
        {
            if (random.nextInt(4) == 0)
            {
                final boolean plain = random.nextBoolean();
                marks.mark(next, plain, cursor);
                marked.set(next++, plain);
            }
            else
            {
                final int run = 1 + random.nextInt(random.nextBoolean() ? 5 : 400);
                marks.markPlain(next, run, cursor);
                marked.set(next, next + run);
                next += run;
            }
            cursor = Math.min(next, cursor + random.nextInt(300));
            final int from = (int)cursor + random.nextInt((int)Math.max(1, next - cursor));
            final int end = Math.min(next, from + random.nextInt(500));
            final int expected = Math.min(end, marked.nextClearBit(from)) - from;
            assertThat(marks.plainRunLength(from, end)).as("from %d to %d", from, end).isEqualTo(Math.max(0, expected));
        }
    }
}
