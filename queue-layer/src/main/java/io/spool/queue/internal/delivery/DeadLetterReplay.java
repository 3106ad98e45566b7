package io.spool.queue.internal.delivery;

import io.spool.api.log.HeadersCodec;
import io.spool.api.log.OffsetOutOfRangeException;
import io.spool.api.log.RecordView;
import io.spool.log.LogReader;
import io.spool.queue.DeathHistory;
import io.spool.stream.Topic;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Sends, as a subscription opens, the dead letters its journal still owes: those a crash caught between the death's
 * commit and the dead-letter topic's confirm. The topic may hold some of them already (stored, not yet confirmed
 * back), so it is read first: a letter whose copy names this subscription, topic, partition and offset as where it
 * died is owed no more. The rest are sent, and the open waits for their confirms. Each death is therefore in the
 * dead-letter topic exactly once. Runs on the opening thread before the subscription's agent starts; not
 * thread-safe.
 */
public final class DeadLetterReplay
{
    private DeadLetterReplay()
    {
    }

    /** Settles what {@code deadLetterTopic} already holds, then sends the rest and waits for them. */
    public static void replay(final String subscription, final String topic, final Topic deadLetterTopic,
        final PartitionWorker[] workers)
    {
        if (Arrays.stream(workers).allMatch(worker -> worker.state().dueDeadLetters().isEmpty()))
        {
            return;
        }
        if (deadLetterTopic != null)
        {
            settleStored(subscription, topic, deadLetterTopic, workers);
        }
        for (final PartitionWorker worker : workers)
        {
            worker.commit();
        }
        for (final PartitionWorker worker : workers)
        {
            worker.awaitLetters();
        }
    }

    private static void settleStored(final String subscription, final String topic, final Topic deadLetterTopic,
        final PartitionWorker[] workers)
    {
        final byte[] subscriptionName = subscription.getBytes(StandardCharsets.UTF_8);
        final byte[] topicName = topic.getBytes(StandardCharsets.UTF_8);
        for (int p = 0; p < deadLetterTopic.partitionCount(); p++)
        {
            try (LogReader reader = deadLetterTopic.partition(p).newReader())
            {
                reader.seek(deadLetterTopic.partition(p).startOffset());
                RecordView record;
                while ((record = next(reader, deadLetterTopic, p)) != null)
                {
                    final int at = record.headersOffset();
                    final int length = record.headersLength();
                    if (!Arrays.equals(subscriptionName,
                            HeadersCodec.find(record.buffer(), at, length, DeathHistory.SUBSCRIPTION)) ||
                        !Arrays.equals(topicName, HeadersCodec.find(record.buffer(), at, length, DeathHistory.TOPIC)))
                    {
                        continue;
                    }
                    final long partition = number(HeadersCodec.find(record.buffer(), at, length,
                        DeathHistory.PARTITION));
                    final long offset = number(HeadersCodec.find(record.buffer(), at, length, DeathHistory.OFFSET));
                    if (partition >= 0 && partition < workers.length && offset >= 0)
                    {
                        workers[(int)partition].state().deadLetterStored(offset);
                    }
                }
            }
        }
    }

    /** The next record, or null at the end; past what retention removed meanwhile. */
    private static RecordView next(final LogReader reader, final Topic deadLetterTopic, final int partition)
    {
        while (true)
        {
            try
            {
                return reader.next();
            }
            catch (final OffsetOutOfRangeException ex)
            {
                reader.seek(deadLetterTopic.partition(partition).startOffset());
            }
        }
    }

    private static long number(final byte[] text)
    {
        if (text == null)
        {
            return -1;
        }
        try
        {
            return Long.parseLong(new String(text, StandardCharsets.UTF_8));
        }
        catch (final NumberFormatException ex)
        {
            return -1;
        }
    }
}
