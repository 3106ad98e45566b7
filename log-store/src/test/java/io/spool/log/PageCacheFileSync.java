package io.spool.log;

import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * A {@link FileSync} that forces nothing: every write stays in the page cache, where a killed process leaves it.
 * For tests whose crashes are a killed process (a copy of the running engine's files), which a force does not
 * change, and which open and crash engines often enough that the forces were most of their time; what a power loss
 * keeps is {@link PowerLossFileSync}'s to test. Stateless, thread-safe.
 */
public final class PageCacheFileSync implements FileSync
{
    public static final PageCacheFileSync INSTANCE = new PageCacheFileSync();

    private PageCacheFileSync()
    {
    }

    @Override
    public void force(final Path file, final MappedByteBuffer mapped, final int from, final int length)
    {
    }

    @Override
    public void force(final Path file, final FileChannel channel, final boolean metadata)
    {
    }

    @Override
    public void force(final Path file, final FileChannel channel, final long from, final long to)
    {
    }

    @Override
    public void forceDirectory(final Path directory)
    {
    }

    @Override
    public String toString()
    {
        return "PageCacheFileSync";
    }
}
