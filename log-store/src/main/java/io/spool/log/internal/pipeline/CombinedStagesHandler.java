package io.spool.log.internal.pipeline;

import io.spool.log.PipelineThreading;
import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.RingBuffer;

/**
 * The three pipeline stages run by one thread ({@link PipelineThreading#COMBINED}): every event of a batch is
 * appended (and noted for the flush), the batch is forced and committed at its end, and only then is each record
 * confirmed. The ring slots of the batch stay this handler's until it returns, so the confirms read them back in
 * place.
 */
final class CombinedStagesHandler implements EventHandler<AppendEvent>
{
    private final AppendHandler append;
    private final FlushHandler flush;
    private final PublishHandler publish;
    private RingBuffer<AppendEvent> ring;
    private long batchStart = -1;

    CombinedStagesHandler(final AppendHandler append, final FlushHandler flush, final PublishHandler publish)
    {
        this.append = append;
        this.flush = flush;
        this.publish = publish;
    }

    void ring(final RingBuffer<AppendEvent> ring)
    {
        this.ring = ring;
    }

    @Override
    public void onBatchStart(final long batchSize, final long queueDepth)
    {
        append.onBatchStart(batchSize, queueDepth);
    }

    @Override
    public void onEvent(final AppendEvent event, final long sequence, final boolean endOfBatch)
    {
        if (batchStart < 0)
        {
            batchStart = sequence;
        }
        append.onEvent(event, sequence, endOfBatch);
        flush.onEvent(event, sequence, endOfBatch);
        if (endOfBatch)
        {
            for (long s = batchStart; s <= sequence; s++)
            {
                publish.onEvent(ring.get(s), s, s == sequence);
            }
            batchStart = -1;
        }
    }

    @Override
    public void onTimeout(final long sequence)
    {
        flush.onTimeout(sequence);
    }
}
