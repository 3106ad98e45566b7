package io.spool.queue;

import org.junit.jupiter.api.Test;

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
}
