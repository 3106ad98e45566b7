package io.spool.model;

/**
 * One message of one partition as a {@link QueueModel} subscription sees it: where it is stored, its group and size,
 * when it was published and expires, and its state, deliveries, holder, lock deadline and delay. The model changes
 * it; others only read where it is. Not thread-safe.
 */
public final class QueueMessage
{
    public enum State
    {
        AVAILABLE, ACQUIRED, DELAYED, ACKED, DEAD
    }

    final int partition;
    final long offset;
    final long sequence;
    final String value;
    final String group;
    final long bytes;
    final long publishedAt;
    final long expiresAt;
    State state = State.AVAILABLE;
    int deliveries;
    String holder;
    long lockDeadline;
    long delayedUntil;

    QueueMessage(final int partition, final long offset, final long sequence, final String value, final String group,
        final long bytes, final long publishedAt, final long expiresAt)
    {
        this.partition = partition;
        this.offset = offset;
        this.sequence = sequence;
        this.value = value;
        this.group = group;
        this.bytes = bytes;
        this.publishedAt = publishedAt;
        this.expiresAt = expiresAt;
    }

    boolean hasExpired(final long now)
    {
        return expiresAt <= now;
    }

    boolean isSettled()
    {
        return state == State.ACKED || state == State.DEAD;
    }

    public int partition()
    {
        return partition;
    }

    public long offset()
    {
        return offset;
    }

    @Override
    public String toString()
    {
        return partition + "@" + offset + (group == null ? "" : " group " + group) + " " + state + " x" +
            deliveries + (state == State.ACQUIRED ? " by " + holder + " until " + lockDeadline : "") +
            (state == State.DELAYED ? " until " + delayedUntil : "");
    }
}
