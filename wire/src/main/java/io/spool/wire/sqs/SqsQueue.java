package io.spool.wire.sqs;

import io.spool.queue.Subscription;

/**
 * A queue as one request sees it: its name, the subscription it reads and what the endpoint keeps about it.
 * Immutable and thread-safe; looked up again for each request, so that a purge or a change is seen at once.
 */
record SqsQueue(String name, Subscription subscription, QueueDefinition definition)
{
    boolean fifo()
    {
        return definition.fifo();
    }

    String topic()
    {
        return subscription.topic();
    }
}
