package io.spool.api;

import io.spool.api.queue.QueueSubscription;
import io.spool.api.stream.Producer;
import io.spool.api.stream.StreamReader;

/**
 * What an application does with Spool: publish, read streams by offset, consume queues and administer them. The
 * embedded engine ({@code Spool.open(dir)}) and the network client ({@code SpoolClient.connect(config)}) both are one,
 * so code written against this interface moves from one to the other by changing the line that opens it.
 * <p>
 * Each implementation offers more beside (the embedded engine's zero-copy views and its clock, the client's batching
 * settings); this is the part they share, with the same meaning on both.
 */
public interface Messaging extends AutoCloseable
{
    /** Topics, subscriptions and their figures. */
    Admin admin();

    /** A producer for one publishing thread. */
    Producer newProducer();

    /** A reader of topic partitions by offset, for one thread; it starts with no partitions assigned. */
    StreamReader newStreamReader();

    /**
     * The subscription of that name, to receive from and settle.
     *
     * @throws io.spool.api.queue.UnknownSubscriptionException when there is none of that name (the client learns it
     *                                                         at the first call that reaches the server).
     */
    QueueSubscription subscription(String name);

    /** Releases what this holds: the engine's files and threads, or the client's connection. */
    @Override
    void close();
}
