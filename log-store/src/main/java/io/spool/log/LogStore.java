package io.spool.log;

import io.spool.api.EngineClosedException;
import io.spool.api.log.LogConfig;
import io.spool.log.internal.pipeline.IngestPipeline;
import io.spool.log.internal.pipeline.SegmentPrefaulter;
import io.spool.log.internal.segment.IdleSegmentMappings;
import org.agrona.concurrent.EpochClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Owns a data directory of partition logs, the ingest pipelines that write them, and the maintenance task that
 * applies retention. Upper layers open logs by name (a relative directory) and publish through
 * {@link LogProducer}s. Thread-safe.
 */
public final class LogStore implements AutoCloseable
{
    private static final Logger LOGGER = LoggerFactory.getLogger(LogStore.class);

    private final Path dataDir;
    private final LogStoreConfig config;
    private final IngestPipeline[] pipelines;
    private final Map<String, PartitionLog> logs = new ConcurrentHashMap<>();
    private final ScheduledExecutorService maintenance;
    private final DataDirectoryLock lock;
    private final IdleSegmentMappings idleMappings;
    private final SegmentPrefaulter prefaulter;
    private final OpenReport openReport = new OpenReport();
    private int nextPipeline;
    private volatile boolean closed;

    private LogStore(final Path dataDir, final LogStoreConfig config, final DataDirectoryLock lock)
    {
        this.dataDir = dataDir;
        this.config = config;
        this.idleMappings = new IdleSegmentMappings(config.idleMappedSegments());
        this.prefaulter = config.prefaultBytes() > 0 ? new SegmentPrefaulter(config.prefaultBytes()) : null;
        this.lock = lock;
        this.pipelines = new IngestPipeline[config.pipelines()];
        for (int i = 0; i < pipelines.length; i++)
        {
            pipelines[i] = new IngestPipeline(i, config.ringSize(), config.idleFlushCheckMillis(), config.clock(),
                config.threading());
        }
        if (config.backgroundMaintenance())
        {
            maintenance = Executors.newSingleThreadScheduledExecutor(runnable ->
            {
                final Thread thread = new Thread(runnable, "spool-log-maintenance");
                thread.setDaemon(true);
                return thread;
            });
            maintenance.scheduleWithFixedDelay(this::maintain, config.maintenanceIntervalMillis(),
                config.maintenanceIntervalMillis(), TimeUnit.MILLISECONDS);
        }
        else
        {
            maintenance = null;
        }
    }

    public static LogStore open(final Path dataDir, final LogStoreConfig config)
    {
        DurableFiles.createDirectories(config.fileSync(), dataDir);
        final DataDirectoryLock lock = DataDirectoryLock.acquire(dataDir);
        try
        {
            return new LogStore(dataDir, config, lock);
        }
        catch (final RuntimeException ex)
        {
            lock.close();
            throw ex;
        }
    }

    public Path dataDir()
    {
        return dataDir;
    }

    /** What opening found and repaired, in the logs and in what the layers above keep beside them. */
    public OpenReport openReport()
    {
        return openReport;
    }

    /** What every force goes through; the stream and queue state kept beside the logs force through it too. */
    public FileSync fileSync()
    {
        return config.fileSync();
    }

    public EpochClock clock()
    {
        return config.clock();
    }

    public boolean isClosed()
    {
        return closed;
    }

    /**
     * Opens the log {@code name} (a relative directory such as {@code topics/orders/0}), recovering it if it
     * exists; an already open log is returned as it is.
     */
    public synchronized PartitionLog openLog(final String name, final LogConfig logConfig)
    {
        ensureOpen();
        final PartitionLog existing = logs.get(name);
        if (existing != null)
        {
            return existing;
        }
        final PartitionLog log = PartitionLog.open(name, resolve(name), logConfig, config.clock(), idleMappings,
            config.fileSync());
        final RecoveryReport report = log.recoveryReport();
        if (!report.isClean())
        {
            openReport.add(OpenReport.Action.LOG_REPAIRED, "log " + name, report.toString());
        }
        log.attach(pipelines[nextPipeline++ % pipelines.length]);
        logs.put(name, log);
        if (prefaulter != null)
        {
            prefaulter.add(log.writer);
        }
        return log;
    }

    /** The open log of that name, or null. */
    public PartitionLog log(final String name)
    {
        return logs.get(name);
    }

    public Collection<PartitionLog> logs()
    {
        return List.copyOf(logs.values());
    }

    /**
     * Closes the log (its in-flight publishes are confirmed first) and deletes its directory. Readers still inside
     * a segment finish it; the files go when they leave.
     */
    public synchronized void deleteLog(final String name)
    {
        ensureOpen();
        final PartitionLog log = logs.remove(name);
        final Path dir = resolve(name);
        if (log != null)
        {
            closeLog(log);
            log.deleteSegments();
        }
        DurableFiles.deleteTree(dir);
    }

    private void closeLog(final PartitionLog log)
    {
        if (prefaulter != null)
        {
            prefaulter.remove(log.writer);
        }
        log.markClosedForAppends();
        log.pipeline().awaitDrained();
        log.close();
        log.pipeline().detach(log.writer);
    }

    private Path resolve(final String name)
    {
        if (name == null || name.isEmpty())
        {
            throw new IllegalArgumentException("log name must not be empty");
        }
        final Path relative = Path.of(name).normalize();
        if (relative.isAbsolute() || relative.startsWith("..") || relative.toString().isEmpty())
        {
            throw new IllegalArgumentException("log name must be a relative path inside the data directory: " + name);
        }
        return dataDir.resolve(relative);
    }

    /** A new producing handle; use one per publishing thread. */
    public LogProducer newProducer()
    {
        ensureOpen();
        return new LogProducer(this);
    }

    /**
     * Applies retention to every log now.
     *
     * @return the number of segments deleted.
     */
    public int runMaintenance()
    {
        final long now = config.clock().time();
        int deleted = 0;
        for (final PartitionLog log : logs.values())
        {
            deleted += log.applyRetention(now);
        }
        return deleted;
    }

    private void maintain()
    {
        try
        {
            runMaintenance();
        }
        catch (final RuntimeException ex)
        {
            LOGGER.error("log maintenance failed; it runs again next interval", ex);
        }
    }

    /** How many times the pipelines have forced a segment to disk since the store opened. */
    public long fsyncCount()
    {
        long total = 0;
        for (final IngestPipeline pipeline : pipelines)
        {
            total += pipeline.forces();
        }
        return total;
    }

    private void ensureOpen()
    {
        if (closed)
        {
            throw new EngineClosedException("log store at " + dataDir.getFileName());
        }
    }

    /**
     * Confirms everything already published, forces what the durability policies promise, and releases every
     * mapping.
     */
    @Override
    public synchronized void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        if (maintenance != null)
        {
            maintenance.shutdownNow();
        }
        if (prefaulter != null)
        {
            prefaulter.close();
        }
        for (final IngestPipeline pipeline : pipelines)
        {
            pipeline.close();
        }
        for (final PartitionLog log : logs.values())
        {
            log.close();
        }
        logs.clear();
        idleMappings.evictAll();
        lock.close();
    }
}
