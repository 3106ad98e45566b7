package io.spool.log;

import io.spool.log.internal.segment.PageCacheFill;
import io.spool.testing.SmallDisk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Zeros go only at and above the fill's end, a chunk at a time, never past the capacity; a fill that meets a full
 * disk stops at its end (the writer must not store past it) and goes on once there is room; a fill whose channel an
 * interrupt closed hands the whole file to the writer.
 */
class PageCacheFillTest
{
    private static final int CAPACITY = 3 * PageCacheFill.CHUNK_BYTES + 4096;

    @TempDir
    Path dir;

    @Test
    void fillsWholeChunksFromItsEndAndLeavesWhatLiesBelowIt() throws Exception
    {
        final Path file = fileOfOnes();
        final int written = 1000;
        final PageCacheFill fill = new PageCacheFill(file, written, CAPACITY);

        final int chunk = PageCacheFill.CHUNK_BYTES;
        assertThat(fill.fillTo(written + 1)).as("up to the end of the first chunk").isEqualTo(chunk);
        assertThat(fill.fillTo(chunk)).as("nothing left to do").isEqualTo(chunk);
        final byte[] bytes = Files.readAllBytes(file);
        assertThat(allEqual(bytes, 0, written, (byte)1)).as("below the end: untouched").isTrue();
        assertThat(allEqual(bytes, written, chunk, (byte)0)).as("the filled chunk").isTrue();
        assertThat(allEqual(bytes, chunk, CAPACITY, (byte)1)).as("past the fill: untouched").isTrue();
        fill.stop();
    }

    @Test
    void neverWritesPastTheCapacity() throws Exception
    {
        final Path file = fileOfOnes();
        final PageCacheFill fill = new PageCacheFill(file, 0, CAPACITY);

        assertThat(fill.fillTo(Integer.MAX_VALUE)).isEqualTo(CAPACITY);
        assertThat(fill.end()).isEqualTo(CAPACITY);
        assertThat(Files.size(file)).isEqualTo(CAPACITY);
        assertThat(allEqual(Files.readAllBytes(file), 0, CAPACITY, (byte)0)).isTrue();
        fill.stop();
    }

    @Test
    void aFullDiskStopsTheFillAtItsEndAndTheNextFillGoesOnOnceThereIsRoom() throws Exception
    {
        try (SmallDisk disk = SmallDisk.mount(dir.resolve("small"), 16L << 20))
        {
            final Path file = dir.resolve("small").resolve("segment.log");
            try (RandomAccessFile sparse = new RandomAccessFile(file.toFile(), "rw"))
            {
                sparse.setLength(CAPACITY);
            }
            final PageCacheFill fill = new PageCacheFill(file, 0, CAPACITY);
            disk.fillUpTo(PageCacheFill.CHUNK_BYTES + 4096);

            final int end = fill.fillTo(CAPACITY);
            assertThat(end).as("stopped at the last chunk written whole").isGreaterThan(0).isLessThan(CAPACITY)
                .isEqualTo(fill.end());
            assertThat(end % PageCacheFill.CHUNK_BYTES).isZero();
            assertThat(fill.failure()).hasMessageContaining("No space left on device");

            disk.resize(16L << 20);
            assertThat(fill.fillTo(CAPACITY)).isEqualTo(CAPACITY);
            assertThat(fill.failure()).isNull();
            fill.stop();
        }
    }

    @Test
    void anInterruptedFillLeavesTheRestToTheWriter() throws Exception
    {
        final Path file = fileOfOnes();
        final PageCacheFill fill = new PageCacheFill(file, 0, CAPACITY);

        Thread.currentThread().interrupt();
        final int end;
        try
        {
            end = fill.fillTo(PageCacheFill.CHUNK_BYTES);
        }
        finally
        {
            Thread.interrupted();
        }

        assertThat(end).as("the interrupt closed the channel: the writer may store anywhere").isEqualTo(CAPACITY);
        assertThat(fill.fillTo(CAPACITY)).isEqualTo(CAPACITY);
        assertThat(allEqual(Files.readAllBytes(file), 0, CAPACITY, (byte)1)).as("nothing was zeroed").isTrue();
    }

    @Test
    void aStoppedFillWritesNothingMore() throws Exception
    {
        final Path file = fileOfOnes();
        final PageCacheFill fill = new PageCacheFill(file, 0, CAPACITY);
        fill.stop();

        assertThat(fill.fillTo(CAPACITY)).isEqualTo(CAPACITY);
        assertThat(allEqual(Files.readAllBytes(file), 0, CAPACITY, (byte)1)).isTrue();
    }

    private Path fileOfOnes() throws Exception
    {
        final Path file = dir.resolve("segment.log");
        final byte[] ones = new byte[CAPACITY];
        Arrays.fill(ones, (byte)1);
        try (RandomAccessFile out = new RandomAccessFile(file.toFile(), "rw"))
        {
            out.write(ones);
        }
        return file;
    }

    private static boolean allEqual(final byte[] bytes, final int from, final int to, final byte expected)
    {
        for (int i = from; i < to; i++)
        {
            if (bytes[i] != expected)
            {
                return false;
            }
        }
        return true;
    }
}
