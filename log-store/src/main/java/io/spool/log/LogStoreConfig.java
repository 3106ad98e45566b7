package io.spool.log;

import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.SystemEpochClock;

/**
 * Settings of a {@link LogStore}: its clock, how many ingest pipelines it runs and how large their rings are, and
 * how maintenance (retention) runs. Immutable, thread-safe; build with {@link #builder()}.
 */
public final class LogStoreConfig
{
    private final EpochClock clock;
    private final int pipelines;
    private final int ringSize;
    private final long maintenanceIntervalMillis;
    private final boolean backgroundMaintenance;
    private final long idleFlushCheckMillis;
    private final PipelineThreading threading;
    private final int idleMappedSegments;
    private final int prefaultBytes;
    private final FileSync fileSync;

    private LogStoreConfig(final Builder b)
    {
        this.clock = b.clock;
        this.pipelines = b.pipelines;
        this.ringSize = b.ringSize;
        this.maintenanceIntervalMillis = b.maintenanceIntervalMillis;
        this.backgroundMaintenance = b.backgroundMaintenance;
        this.idleFlushCheckMillis = b.idleFlushCheckMillis;
        this.threading = b.threading;
        this.idleMappedSegments = b.idleMappedSegments;
        this.prefaultBytes = b.prefaultBytes;
        this.fileSync = b.fileSync;
    }

    public static Builder builder()
    {
        return new Builder();
    }

    public static LogStoreConfig defaults()
    {
        return builder().build();
    }

    /** Supplies record timestamps and every time-based decision (rolls, retention, interval flushes). */
    public EpochClock clock()
    {
        return clock;
    }

    /** Ingest pipelines; each log is attached to one; each runs one thread, or three when split. */
    public int pipelines()
    {
        return pipelines;
    }

    /** Slots per pipeline ring: the bound on unconfirmed publishes per pipeline. A power of two. */
    public int ringSize()
    {
        return ringSize;
    }

    public long maintenanceIntervalMillis()
    {
        return maintenanceIntervalMillis;
    }

    /** False leaves retention to explicit {@link LogStore#runMaintenance()} calls, as tests do. */
    public boolean backgroundMaintenance()
    {
        return backgroundMaintenance;
    }

    /** How long an idle pipeline waits before checking interval-durability logs for a due force. */
    public long idleFlushCheckMillis()
    {
        return idleFlushCheckMillis;
    }

    /** Whether a pipeline's stages share one thread or take one each; default {@link PipelineThreading#COMBINED}. */
    public PipelineThreading threading()
    {
        return threading;
    }

    /**
     * Closed segments the store keeps mapped after their last reader left (default 32), so that reading them again
     * takes no page faults; the bound keeps the mapping count flat. Each costs three mappings and address space,
     * not memory.
     */
    public int idleMappedSegments()
    {
        return idleMappedSegments;
    }

    /**
     * How far ahead of each log's writer a background thread faults in segment pages (default 8 MiB; 0 runs no
     * such thread), so appends do not take a page fault every 4 KiB. A log that stops growing keeps at most its
     * last lead of pre-faulted zero pages.
     */
    public int prefaultBytes()
    {
        return prefaultBytes;
    }

    /**
     * What every force of the store, and of the stream and queue state kept beside it, goes through: the operating
     * system's ({@link FileSync#FORCE}) unless a test puts a layer there that simulates power loss.
     */
    public FileSync fileSync()
    {
        return fileSync;
    }

    /**
     * Collects settings and validates them in {@link #build()}. Not thread-safe.
     */
    public static final class Builder
    {
        private EpochClock clock = SystemEpochClock.INSTANCE;
        private int pipelines = 1;
        private int ringSize = 4096;
        private long maintenanceIntervalMillis = 30_000;
        private boolean backgroundMaintenance = true;
        private long idleFlushCheckMillis = 10;
        private PipelineThreading threading = PipelineThreading.COMBINED;
        private int idleMappedSegments = 32;
        private int prefaultBytes = 8 << 20;
        private FileSync fileSync = FileSync.FORCE;

        private Builder()
        {
        }

        public Builder threading(final PipelineThreading threading)
        {
            this.threading = java.util.Objects.requireNonNull(threading, "threading");
            return this;
        }

        public Builder clock(final EpochClock clock)
        {
            this.clock = java.util.Objects.requireNonNull(clock, "clock");
            return this;
        }

        public Builder pipelines(final int pipelines)
        {
            this.pipelines = pipelines;
            return this;
        }

        public Builder ringSize(final int ringSize)
        {
            this.ringSize = ringSize;
            return this;
        }

        public Builder maintenanceIntervalMillis(final long maintenanceIntervalMillis)
        {
            this.maintenanceIntervalMillis = maintenanceIntervalMillis;
            return this;
        }

        public Builder backgroundMaintenance(final boolean backgroundMaintenance)
        {
            this.backgroundMaintenance = backgroundMaintenance;
            return this;
        }

        public Builder idleFlushCheckMillis(final long idleFlushCheckMillis)
        {
            this.idleFlushCheckMillis = idleFlushCheckMillis;
            return this;
        }

        public Builder idleMappedSegments(final int idleMappedSegments)
        {
            this.idleMappedSegments = idleMappedSegments;
            return this;
        }

        public Builder prefaultBytes(final int prefaultBytes)
        {
            this.prefaultBytes = prefaultBytes;
            return this;
        }

        public Builder fileSync(final FileSync fileSync)
        {
            this.fileSync = java.util.Objects.requireNonNull(fileSync, "fileSync");
            return this;
        }

        public LogStoreConfig build()
        {
            if (prefaultBytes < 0)
            {
                throw new IllegalArgumentException("prefaultBytes must not be negative, got " + prefaultBytes);
            }
            if (idleMappedSegments < 0)
            {
                throw new IllegalArgumentException("idleMappedSegments must not be negative, got " + idleMappedSegments);
            }
            if (pipelines < 1)
            {
                throw new IllegalArgumentException("pipelines must be at least 1, got " + pipelines);
            }
            if (ringSize < 2 || Integer.bitCount(ringSize) != 1)
            {
                throw new IllegalArgumentException("ringSize must be a power of two of at least 2, got " + ringSize);
            }
            if (maintenanceIntervalMillis <= 0 || idleFlushCheckMillis <= 0)
            {
                throw new IllegalArgumentException("maintenance and idle flush intervals must be positive");
            }
            return new LogStoreConfig(this);
        }
    }
}
