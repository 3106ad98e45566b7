package io.spool.wire.server;

/**
 * Which partitions a cluster node's log holds a copy of. A topic of a cluster is created on every node, but a
 * partition's records reach only the nodes it is placed on, so another node's log of it stays empty: its native
 * server refuses to read such a partition rather than answer that it has no records. The cluster module implements
 * it. Implementations are thread-safe and must not block the calling thread (a connection's event loop).
 */
public interface HeldPartitions
{
    /** A server that is no cluster node holds every partition of its engine. */
    HeldPartitions ALL = (topic, partition) -> true;

    /**
     * @return true when the answer holds for as long as the partition's log, false when the node cannot tell yet
     *         (it has not learnt the topic's placement): the read goes on either way.
     * @throws io.spool.api.InvalidRequestException naming the nodes that hold the partition, when this node holds
     *                                              no copy of it.
     */
    boolean requireHeld(String topic, int partition);
}
