package io.spool.stream;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * File system steps the stream layer's small metadata files share. Stateless, thread-safe.
 */
final class DataDirectory
{
    private DataDirectory()
    {
    }

    /**
     * Fsyncs a directory so a rename inside it survives a machine crash. Some platforms cannot open a
     * directory for sync; there the rename is as durable as the file system makes it anyway.
     */
    static void syncDirectory(final Path directory) throws IOException
    {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ))
        {
            channel.force(true);
        }
        catch (final IOException ex)
        {
            if (!System.getProperty("os.name").toLowerCase().contains("win"))
            {
                throw ex;
            }
        }
    }
}
