package io.spool.log;

import io.spool.api.SpoolException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive lock on a data directory, held while a store has it open: two stores writing the same segments
 * (two processes, or two engines in one process) would corrupt them. Thread-safe.
 */
final class DataDirectoryLock implements AutoCloseable
{
    static final String FILE_NAME = ".lock";

    private final FileChannel channel;
    private final FileLock lock;

    private DataDirectoryLock(final FileChannel channel, final FileLock lock)
    {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * @throws SpoolException when another store, in this process or another, holds the directory.
     */
    static DataDirectoryLock acquire(final Path dataDir)
    {
        final Path file = dataDir.resolve(FILE_NAME);
        FileChannel channel = null;
        try
        {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            final FileLock lock = channel.tryLock();
            if (lock == null)
            {
                throw new SpoolException("data directory " + dataDir + " is in use by another process");
            }
            return new DataDirectoryLock(channel, lock);
        }
        catch (final OverlappingFileLockException ex)
        {
            close(channel);
            throw new SpoolException("data directory " + dataDir + " is already open in this process", ex);
        }
        catch (final IOException ex)
        {
            close(channel);
            throw new UncheckedIOException("cannot lock data directory " + dataDir, ex);
        }
        catch (final SpoolException ex)
        {
            close(channel);
            throw ex;
        }
    }

    private static void close(final FileChannel channel)
    {
        if (channel != null)
        {
            try
            {
                channel.close();
            }
            catch (final IOException ignored)
            {
                // the lock attempt already failed; the caller hears about that
            }
        }
    }

    @Override
    public void close()
    {
        try
        {
            lock.release();
            channel.close();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot release the data directory lock", ex);
        }
    }
}
