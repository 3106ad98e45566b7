package io.spool.queue.internal.store;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static org.assertj.core.api.Assertions.assertThat;

class MappedTailTest
{
    @TempDir
    Path directory;

    @Test
    void writesLandInTheFileAcrossWindowsAndTheFileGrowsByWholeWindows() throws IOException
    {
        final Path file = directory.resolve("tail");
        final byte[] expected = new byte[MappedTail.WINDOW_BYTES + 1000];
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
            StandardOpenOption.WRITE);
            MappedTail tail = new MappedTail(channel, 0, MappedTail.WINDOW_BYTES))
        {
            final UnsafeBuffer chunk = new UnsafeBuffer(new byte[700]);
            long position = 0;
            byte value = 1;
            while (position + chunk.capacity() <= expected.length)
            {
                chunk.setMemory(0, chunk.capacity(), value);
                tail.write(position, chunk, 0, chunk.capacity());
                for (int i = 0; i < chunk.capacity(); i++)
                {
                    expected[(int)position + i] = value;
                }
                position += chunk.capacity();
                value++;
            }
            assertThat(channel.size()).isEqualTo(2L * MappedTail.WINDOW_BYTES);
        }

        final byte[] written = Files.readAllBytes(file);
        assertThat(written).hasSize(2 * MappedTail.WINDOW_BYTES);
        for (int i = 0; i < expected.length; i++)
        {
            assertThat(written[i]).as("byte %d", i).isEqualTo(expected[i]);
        }
    }
}
