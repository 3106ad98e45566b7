package io.spool.log.internal.pipeline;

import io.spool.log.PipelineThreading;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import org.agrona.concurrent.EpochClock;

import java.util.Arrays;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * One ingest pipeline: a Disruptor ring of pre-allocated {@link AppendEvent}s shared by many producers and by the
 * logs attached to it, processed by three stages: append, flush (group commit), publish (confirms), on one thread
 * or three ({@link PipelineThreading}). The ring's size bounds the unconfirmed publishes: a full ring pushes back on producers.
 * Thread-safe.
 */
public final class IngestPipeline implements AutoCloseable
{
    private static final PartitionWriter[] NO_LOGS = new PartitionWriter[0];

    private final int id;
    private final BackoffWaitStrategy waitStrategy;
    private final Disruptor<AppendEvent> disruptor;
    private final RingBuffer<AppendEvent> ring;
    private final FlushHandler flushHandler;
    /** The stage whose progress means a record is confirmed. */
    private final com.lmax.disruptor.EventHandlerIdentity lastStage;
    private volatile PartitionWriter[] logs = NO_LOGS;
    private volatile boolean closed;

    public IngestPipeline(final int id, final int ringSize, final long idleFlushCheckMillis, final EpochClock clock,
        final PipelineThreading threading)
    {
        this.id = id;
        this.waitStrategy = new BackoffWaitStrategy(TimeUnit.MILLISECONDS.toNanos(idleFlushCheckMillis));
        this.disruptor = new Disruptor<>(AppendEvent::new, ringSize, threadFactory(id, threading), ProducerType.MULTI,
            waitStrategy);
        final AppendHandler appendHandler = new AppendHandler(clock);
        this.flushHandler = new FlushHandler(clock, this);
        final PublishHandler publishHandler = new PublishHandler();
        if (threading == PipelineThreading.SPLIT)
        {
            disruptor.handleEventsWith(appendHandler).then(flushHandler).then(publishHandler);
            this.lastStage = publishHandler;
        }
        else
        {
            final CombinedStagesHandler combined = new CombinedStagesHandler(appendHandler, flushHandler, publishHandler);
            combined.ring(disruptor.getRingBuffer());
            disruptor.handleEventsWith(combined);
            this.lastStage = combined;
        }
        this.ring = disruptor.start();
    }

    private static ThreadFactory threadFactory(final int id, final PipelineThreading threading)
    {
        final String[] stages = threading == PipelineThreading.SPLIT ?
            new String[]{"append", "flush", "publish"} : new String[]{"stages"};
        final AtomicInteger next = new AtomicInteger();
        return runnable ->
        {
            final Thread thread = new Thread(runnable,
                "spool-pipeline-" + id + "-" + stages[next.getAndIncrement() % stages.length]);
            thread.setDaemon(true);
            return thread;
        };
    }

    BackoffWaitStrategy waitStrategy()
    {
        return waitStrategy;
    }

    public RingBuffer<AppendEvent> ring()
    {
        return ring;
    }

    int id()
    {
        return id;
    }

    boolean isClosed()
    {
        return closed;
    }

    PartitionWriter[] logs()
    {
        return logs;
    }

    public synchronized void attach(final PartitionWriter log)
    {
        final PartitionWriter[] current = logs;
        final PartitionWriter[] next = Arrays.copyOf(current, current.length + 1);
        next[current.length] = log;
        logs = next;
        log.attach(this);
    }

    public synchronized void detach(final PartitionWriter log)
    {
        logs = Arrays.stream(logs).filter(l -> l != log).toArray(PartitionWriter[]::new);
    }

    public long forces()
    {
        return flushHandler.forces();
    }

    /**
     * Waits until every event published so far has been confirmed.
     */
    public void awaitDrained()
    {
        final long target = ring.getCursor();
        while (disruptor.getSequenceValueFor(lastStage) < target)
        {
            LockSupport.parkNanos(50_000);
        }
    }

    /**
     * Processes everything already published, then stops the stage threads. Waits for the last stage to pass the
     * cursor itself: the Disruptor's own shutdown counts only processors already running, so on a busy machine it
     * could halt a stage thread that had not started yet, dropping what was published.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        awaitDrained();
        disruptor.shutdown();
    }
}
