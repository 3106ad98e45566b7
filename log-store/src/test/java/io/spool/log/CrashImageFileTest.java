package io.spool.log;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A crash image's file must read back as its source does, at its length, wherever the zeros the copy leaves as a
 * hole begin: otherwise the properties would recover from something no crash leaves.
 */
class CrashImageFileTest
{
    private static final int CHUNK = 64 * 1024;

    @TempDir
    Path dir;

    @Test
    void aPreallocatedFileCopiesAsItsContentFollowedByZerosAtItsLength() throws IOException
    {
        final byte[] bytes = new byte[16 * 1024 * 1024];
        bytes[0] = 1;
        bytes[100] = 7; // zeros between content stay content
        assertCopiesExactly(bytes);
    }

    @Test
    void contentEndingAtOrAcrossAChunkOfTheBackwardScanCopiesWhole() throws IOException
    {
        for (final int lastNonZero : new int[] {CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK - 1})
        {
            final byte[] bytes = new byte[4 * CHUNK + 5];
            bytes[lastNonZero] = (byte)0xff;
            bytes[lastNonZero / 2] = 3;
            assertCopiesExactly(bytes);
        }
    }

    @Test
    void filesOfOnlyZerosOfNoBytesAndEndingInContentCopyExactly() throws IOException
    {
        assertCopiesExactly(new byte[3 * CHUNK]);
        assertCopiesExactly(new byte[0]);
        final byte[] full = new byte[CHUNK + 17];
        java.util.Arrays.fill(full, (byte)9);
        assertCopiesExactly(full);
    }

    private void assertCopiesExactly(final byte[] bytes) throws IOException
    {
        final Path source = Files.write(dir.resolve("source"), bytes);
        final Path target = dir.resolve("target");
        Files.deleteIfExists(target);

        CrashImageFile.copy(source, target);

        assertThat(Files.size(target)).as("length").isEqualTo(bytes.length);
        assertThat(Files.readAllBytes(target)).as("bytes").isEqualTo(bytes);
    }
}
