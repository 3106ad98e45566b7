package io.spool.perf.jmh;

import java.nio.file.Path;

/** What every Spool JMH benchmark shares: the fork's JVM flags and where its files go. */
final class JmhSettings
{
    /** Agrona 2 reaches {@code jdk.internal.misc.Unsafe}; a forked JVM must export it. */
    static final String ADD_EXPORTS = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED";

    /** 100-byte values, the size the figures are quoted for. */
    static final int VALUE_BYTES = 100;

    /** The log's default segment size, so baseline and log pay the same number of rolls. */
    static final int SEGMENT_BYTES = 64 * 1024 * 1024;

    private JmhSettings()
    {
    }

    /** Benchmarks write under {@code -Dspool.data.dir}, by default {@code spool-data} in the working directory. */
    static Path dataDirectory()
    {
        return Path.of(System.getProperty("spool.data.dir", "spool-data"));
    }

    static byte[] value(final int length)
    {
        final byte[] value = new byte[length];
        for (int i = 0; i < length; i++)
        {
            value[i] = (byte)('a' + i % 26);
        }
        return value;
    }
}
