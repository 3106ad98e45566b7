package io.spool.perf.jmh;

import io.spool.api.log.Durability;
import io.spool.api.log.LogConfig;
import io.spool.log.LogStore;
import io.spool.log.LogStoreConfig;
import io.spool.log.PartitionLog;
import io.spool.perf.bench.Payloads;
import io.spool.perf.bench.ScratchDirectory;

import java.nio.file.Path;

/** What every Spool JMH benchmark shares: where its files go. */
final class JmhSettings
{
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

    static byte[] value()
    {
        return Payloads.printable(VALUE_BYTES);
    }

    /** The benchmark's one log, with that durability. */
    static PartitionLog openLog(final LogStore store, final Durability durability)
    {
        return store.openLog("jmh/0", LogConfig.builder().durability(durability).build());
    }

    /** A store without background maintenance: a benchmark retains everything until its directory goes. */
    static LogStore openStore(final ScratchDirectory directory)
    {
        return LogStore.open(directory.path(), LogStoreConfig.builder().backgroundMaintenance(false).build());
    }
}
