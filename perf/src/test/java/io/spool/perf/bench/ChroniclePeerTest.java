package io.spool.perf.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Percentage.withPercentage;

class ChroniclePeerTest
{
    /** What the harness's benchmark prints, run for run. */
    private static final List<String> OUTPUT = List.of(
        "chronicle-queue bench: 5,000 msgs x 100 B (0.5 MB payload) x 3 runs, dir /tmp/q, java 17.0.15",
        "run 1: append (writeBytes)              5,000 msgs in   0.050 s =      100,000 msgs/s      10.0 MB/s  ",
        "run 1: tail readBytes (copy)            5,000 msgs in   0.010 s =      500,000 msgs/s      50.0 MB/s  ok",
        "run 1: tail readingDocument (0c)        5,000 msgs in   0.010 s =      500,000 msgs/s      50.0 MB/s  ok",
        "run 3: append (writeBytes)              5,000 msgs in   0.001 s =    4,000,000 msgs/s     400.0 MB/s  ",
        "run 3: tail readBytes (copy)            5,000 msgs in   0.000 s =   20,000,000 msgs/s    2000.0 MB/s  ok",
        "run 3: tail readingDocument (0c)        5,000 msgs in   0.000 s =   50,000,000 msgs/s    5000.0 MB/s  ok",
        "run 3: queue dir allocated on disk 83.9 MB (16777.2 B/msg incl. 4 B header + index)");

    @TempDir
    Path dir;

    @Test
    void theLastRunsAppendAndZeroCopyTailAreTheFigures()
    {
        final ChroniclePeer.Round round = ChroniclePeer.parse(OUTPUT, 5_000, 100);

        assertThat(round.append().recordsPerSec()).isCloseTo(4_000_000, withPercentage(0.01));
        assertThat(round.append().name()).isEqualTo(ChroniclePeer.APPENDER);
        assertThat(round.tail().recordsPerSec()).isCloseTo(50_000_000, withPercentage(0.01));
        assertThat(round.tail().records()).isEqualTo(5_000);
        assertThat(round.tail().valueBytes()).isEqualTo(100);
    }

    @Test
    void aTailThatDidNotReadBackItsRecordsIsAnError()
    {
        final List<String> mismatch = List.of(OUTPUT.get(4),
            "run 3: tail readingDocument (0c)        4,999 msgs in   0.000 s =   50,000,000 msgs/s  5000.0 MB/s  MISMATCH count=4999 bad=0");

        assertThatThrownBy(() -> ChroniclePeer.parse(mismatch, 5_000, 100))
            .hasMessageContaining("did not read back its 5000 records");
    }

    @Test
    void outputWithoutTheLastRunIsAnErrorThatShowsIt()
    {
        assertThatThrownBy(() -> ChroniclePeer.parse(OUTPUT.subList(0, 4), 5_000, 100))
            .hasMessageContaining("no figures of run 3").hasMessageContaining("run 1: append");
    }

    @Test
    void aHomeWithoutTheBuiltHarnessIsRefusedWithWhatToDo()
    {
        assertThatThrownBy(() -> ChroniclePeer.locate(dir))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("not set up in " + dir).hasMessageContaining("peer chronicle setup");
    }
}
