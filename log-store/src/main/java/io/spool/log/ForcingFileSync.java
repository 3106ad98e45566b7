package io.spool.log;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** {@link FileSync#FORCE}: the operating system's forces. Stateless, thread-safe. */
final class ForcingFileSync implements FileSync
{
    @Override
    public void force(final Path file, final MappedByteBuffer mapped, final int from, final int length)
    {
        mapped.force(from, length);
    }

    @Override
    public void force(final Path file, final FileChannel channel, final boolean metadata) throws IOException
    {
        channel.force(metadata);
    }

    @Override
    public void force(final Path file, final FileChannel channel, final long from, final long to) throws IOException
    {
        channel.force(false);
    }

    @Override
    public void forceDirectory(final Path directory) throws IOException
    {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ))
        {
            channel.force(true);
        }
    }

    @Override
    public String toString()
    {
        return "FileSync.FORCE";
    }
}
