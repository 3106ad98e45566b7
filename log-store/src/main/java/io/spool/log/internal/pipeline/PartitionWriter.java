package io.spool.log.internal.pipeline;

import io.spool.api.log.LogConfig;
import io.spool.api.log.RecordView;
import io.spool.log.FileSync;
import io.spool.log.internal.segment.IdleSegmentMappings;
import io.spool.log.internal.segment.LogSegments;
import io.spool.log.internal.segment.Segment;
import io.spool.log.internal.segment.SegmentScanner;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The writing side of one partition log, as the ingest pipeline sees it: its appender (the append thread's), its
 * flusher (the flush thread's), the pipeline it is attached to, and whether it still takes appends. Ring slots point
 * at it, so a stage reaches its log's writer in one load. The log ({@link io.spool.log.PartitionLog}) creates it
 * and keeps everything readers see.
 * <p>
 * Thread-safe: the pipeline is set once before the first publish, the closed flag is volatile, and the appender and
 * flusher are touched only by their own stage threads (and by the closing thread once the pipeline drained).
 */
public final class PartitionWriter
{
    private final String name;
    private final LogConfig config;
    private final LogSegments segments;
    final LogAppender appender;
    final LogFlusher flusher;
    private IngestPipeline pipeline;
    private volatile boolean closed;

    /**
     * @param headerFreeFrom the log's "no headers from here on" offset, which the appender moves past every record
     *                       it writes with headers.
     * @param committed      where the flusher publishes the committed end.
     */
    public PartitionWriter(final String name, final Path dir, final LogConfig config, final FileSync fileSync,
        final IdleSegmentMappings idleMappings, final LogSegments segments, final SegmentScanner.Result activeScan,
        final AtomicLong headerFreeFrom, final CommitPublisher committed)
    {
        this.name = name;
        this.config = config;
        this.segments = segments;
        final Segment active = segments.active();
        this.appender = new LogAppender(dir, config, idleMappings, segments, headerFreeFrom, active, activeScan);
        this.flusher = new LogFlusher(dir, config, fileSync, committed, active, appender.writePosition());
    }

    public String name()
    {
        return name;
    }

    public LogConfig config()
    {
        return config;
    }

    /** The next offset the appender assigns. */
    public long nextOffset()
    {
        return appender.nextOffset();
    }

    /** Where the appender writes next in the active segment. */
    public int writePosition()
    {
        return appender.writePosition();
    }

    /** Opening only, before the pipeline runs: a record stored inside the dedup window, for the dedup index. */
    public void rememberDedupId(final RecordView record)
    {
        appender.rememberDedupId(record);
    }

    Segment activeSegment()
    {
        return segments.active();
    }

    public IngestPipeline pipeline()
    {
        return pipeline;
    }

    void attach(final IngestPipeline pipeline)
    {
        this.pipeline = pipeline;
    }

    /** True once {@link #close()} ran: the appender refuses what is still in the ring for this log. */
    boolean isClosed()
    {
        return closed;
    }

    /**
     * Closes after the pipeline has drained this log: forces what the durability policy promised and releases the
     * writer's segment.
     */
    public void close()
    {
        closed = true;
        flusher.releaseSegment();
    }
}
