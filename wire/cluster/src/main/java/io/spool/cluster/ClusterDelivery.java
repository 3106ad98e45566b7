package io.spool.cluster;

/**
 * One message a cluster receive handed out: its receipt, and how many times it has been delivered (1 the first
 * time; the count goes on across failovers). The record itself is read by offset from any node's native server.
 * Immutable and thread-safe.
 */
public record ClusterDelivery(ClusterReceipt receipt)
{
    public long offset()
    {
        return receipt.offset();
    }

    public int deliveryCount()
    {
        return receipt.deliveryNumber();
    }
}
