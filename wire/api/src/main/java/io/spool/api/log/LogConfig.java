package io.spool.api.log;

/**
 * The settings of one partition log. Immutable, thread-safe; build with {@link #builder()}.
 */
public final class LogConfig
{
    public static final int DEFAULT_SEGMENT_BYTES = 64 * 1024 * 1024;
    public static final int DEFAULT_INDEX_INTERVAL_BYTES = 4096;
    public static final int DEFAULT_MAX_RECORD_BYTES = 1024 * 1024;
    /** Bytes each segment file spends on its header; a segment must hold one largest record after it. */
    public static final int SEGMENT_HEADER_BYTES = 64;
    public static final LogConfig DEFAULT = builder().build();

    private final int segmentBytes;
    private final int indexIntervalBytes;
    private final int maxRecordBytes;
    private final long segmentRollMillis;
    private final long retentionMillis;
    private final long retentionBytes;
    private final Durability durability;
    private final long dedupWindowMillis;
    private final boolean logAppendTime;

    private LogConfig(final Builder b)
    {
        this.segmentBytes = b.segmentBytes;
        this.indexIntervalBytes = b.indexIntervalBytes;
        this.maxRecordBytes = b.maxRecordBytes;
        this.segmentRollMillis = b.segmentRollMillis;
        this.retentionMillis = b.retentionMillis;
        this.retentionBytes = b.retentionBytes;
        this.durability = b.durability;
        this.dedupWindowMillis = b.dedupWindowMillis;
        this.logAppendTime = b.logAppendTime;
    }

    public static Builder builder()
    {
        return new Builder();
    }

    public Builder toBuilder()
    {
        final Builder b = new Builder();
        b.segmentBytes = segmentBytes;
        b.indexIntervalBytes = indexIntervalBytes;
        b.maxRecordBytes = maxRecordBytes;
        b.segmentRollMillis = segmentRollMillis;
        b.retentionMillis = retentionMillis;
        b.retentionBytes = retentionBytes;
        b.durability = durability;
        b.dedupWindowMillis = dedupWindowMillis;
        b.logAppendTime = logAppendTime;
        return b;
    }

    /** Size a segment file is pre-allocated to; a segment rolls when the next record does not fit. */
    public int segmentBytes()
    {
        return segmentBytes;
    }

    /** Bytes of records between two entries of the sparse offset index. */
    public int indexIntervalBytes()
    {
        return indexIntervalBytes;
    }

    /** Largest stored frame (header, key, headers and value) a log accepts. */
    public int maxRecordBytes()
    {
        return maxRecordBytes;
    }

    /** Age of a segment's first record after which the next append rolls it; {@code Long.MAX_VALUE} never. */
    public long segmentRollMillis()
    {
        return segmentRollMillis;
    }

    /** Closed segments whose newest record is older than this are deleted; -1 keeps them forever. */
    public long retentionMillis()
    {
        return retentionMillis;
    }

    /** Oldest closed segments are deleted while the log is larger than this; -1 is unbounded. */
    public long retentionBytes()
    {
        return retentionBytes;
    }

    public Durability durability()
    {
        return durability;
    }

    /** How long a dedup id is remembered: a record with the same id inside it is not stored again. */
    public long dedupWindowMillis()
    {
        return dedupWindowMillis;
    }

    /**
     * True when every record is stamped with the time the log appends it, whatever timestamp its producer gave
     * (Kafka's {@code message.timestamp.type=LogAppendTime}); false keeps a producer's timestamp.
     */
    public boolean logAppendTime()
    {
        return logAppendTime;
    }

    @Override
    public String toString()
    {
        return "LogConfig{segmentBytes=" + segmentBytes + ", indexIntervalBytes=" + indexIntervalBytes +
            ", maxRecordBytes=" + maxRecordBytes + ", segmentRollMillis=" + segmentRollMillis +
            ", retentionMillis=" + retentionMillis + ", retentionBytes=" + retentionBytes +
            ", durability=" + durability + ", dedupWindowMillis=" + dedupWindowMillis + ", logAppendTime=" + logAppendTime + '}';
    }

    /**
     * Collects settings and validates them together in {@link #build()}. Not thread-safe.
     */
    public static final class Builder
    {
        private int segmentBytes = DEFAULT_SEGMENT_BYTES;
        private int indexIntervalBytes = DEFAULT_INDEX_INTERVAL_BYTES;
        private int maxRecordBytes = DEFAULT_MAX_RECORD_BYTES;
        private long segmentRollMillis = Long.MAX_VALUE;
        private long retentionMillis = -1;
        private long retentionBytes = -1;
        private Durability durability = Durability.NONE;
        private long dedupWindowMillis = 5 * 60 * 1000;
        private boolean logAppendTime;

        private Builder()
        {
        }

        public Builder segmentBytes(final int segmentBytes)
        {
            this.segmentBytes = segmentBytes;
            return this;
        }

        public Builder indexIntervalBytes(final int indexIntervalBytes)
        {
            this.indexIntervalBytes = indexIntervalBytes;
            return this;
        }

        public Builder maxRecordBytes(final int maxRecordBytes)
        {
            this.maxRecordBytes = maxRecordBytes;
            return this;
        }

        public Builder segmentRollMillis(final long segmentRollMillis)
        {
            this.segmentRollMillis = segmentRollMillis;
            return this;
        }

        public Builder retentionMillis(final long retentionMillis)
        {
            this.retentionMillis = retentionMillis;
            return this;
        }

        public Builder retentionBytes(final long retentionBytes)
        {
            this.retentionBytes = retentionBytes;
            return this;
        }

        public Builder durability(final Durability durability)
        {
            this.durability = java.util.Objects.requireNonNull(durability, "durability");
            return this;
        }

        public Builder dedupWindowMillis(final long dedupWindowMillis)
        {
            this.dedupWindowMillis = dedupWindowMillis;
            return this;
        }

        /** See {@link LogConfig#logAppendTime()}. */
        public Builder logAppendTime(final boolean logAppendTime)
        {
            this.logAppendTime = logAppendTime;
            return this;
        }

        public LogConfig build()
        {
            if (dedupWindowMillis <= 0)
            {
                throw new IllegalArgumentException("dedupWindowMillis must be positive, got " + dedupWindowMillis);
            }
            if (maxRecordBytes < RecordDescriptor.HEADER_LENGTH)
            {
                throw new IllegalArgumentException("maxRecordBytes " + maxRecordBytes +
                    " is smaller than the record header of " + RecordDescriptor.HEADER_LENGTH + " bytes");
            }
            final long smallestSegment = (long)SEGMENT_HEADER_BYTES + RecordDescriptor.align(maxRecordBytes);
            if (segmentBytes < smallestSegment)
            {
                throw new IllegalArgumentException("segmentBytes " + segmentBytes +
                    " cannot hold one record of maxRecordBytes " + maxRecordBytes + ": it needs at least " + smallestSegment);
            }
            if (indexIntervalBytes <= 0)
            {
                throw new IllegalArgumentException("indexIntervalBytes must be positive, got " + indexIntervalBytes);
            }
            if (segmentRollMillis <= 0)
            {
                throw new IllegalArgumentException("segmentRollMillis must be positive, got " + segmentRollMillis);
            }
            if (retentionMillis < -1 || retentionMillis == 0)
            {
                throw new IllegalArgumentException("retentionMillis must be positive or -1 (forever), got " + retentionMillis);
            }
            if (retentionBytes < -1 || retentionBytes == 0)
            {
                throw new IllegalArgumentException("retentionBytes must be positive or -1 (unbounded), got " + retentionBytes);
            }
            return new LogConfig(this);
        }
    }
}
