package io.spool.queue.internal.store;

/**
 * What {@link StateVerifier} found in a subscription partition's state directory. Immutable and thread-safe.
 */
final class StateReport
{
    private final int partition;
    private final long generation;
    private final long ackFloor;
    private final long readCursor;
    private final long ackedAboveFloor;
    private final long deadAboveFloor;
    private final long delayed;
    private final long available;
    private final long deadOnOpen;
    private final int maxDeliveryCount;
    private final long snapshotBytes;
    private final long journalBytes;
    private final long journalValidBytes;

    StateReport(
        final int partition, final long generation, final long ackFloor, final long readCursor,
        final long ackedAboveFloor, final long deadAboveFloor, final long delayed, final long available,
        final long deadOnOpen, final int maxDeliveryCount, final long snapshotBytes, final long journalBytes,
        final long journalValidBytes)
    {
        this.partition = partition;
        this.generation = generation;
        this.ackFloor = ackFloor;
        this.readCursor = readCursor;
        this.ackedAboveFloor = ackedAboveFloor;
        this.deadAboveFloor = deadAboveFloor;
        this.delayed = delayed;
        this.available = available;
        this.deadOnOpen = deadOnOpen;
        this.maxDeliveryCount = maxDeliveryCount;
        this.snapshotBytes = snapshotBytes;
        this.journalBytes = journalBytes;
        this.journalValidBytes = journalValidBytes;
    }

    public int partition()
    {
        return partition;
    }

    public long generation()
    {
        return generation;
    }

    public long ackFloor()
    {
        return ackFloor;
    }

    public long readCursor()
    {
        return readCursor;
    }

    public long ackedAboveFloor()
    {
        return ackedAboveFloor;
    }

    public long deadAboveFloor()
    {
        return deadAboveFloor;
    }

    public long delayed()
    {
        return delayed;
    }

    /** Delivered, unsettled messages that an open makes available again (held ones included). */
    public long available()
    {
        return available;
    }

    /** Messages whose last delivery reached the delivery limit; an open dead-letters them. */
    public long deadOnOpen()
    {
        return deadOnOpen;
    }

    public int maxDeliveryCount()
    {
        return maxDeliveryCount;
    }

    public long snapshotBytes()
    {
        return snapshotBytes;
    }

    public long journalBytes()
    {
        return journalBytes;
    }

    /** Bytes of the journal up to its last valid entry; an open truncates the rest as a torn write. */
    public long journalValidBytes()
    {
        return journalValidBytes;
    }

    @Override
    public String toString()
    {
        return "partition " + partition + ", generation " + generation + '\n' +
            "ack floor " + ackFloor + ", read cursor " + readCursor + '\n' +
            "above the floor: " + ackedAboveFloor + " acked, " + deadAboveFloor + " dead, " + delayed +
            " delayed, " + available + " available, " + deadOnOpen + " over the delivery limit" + '\n' +
            "highest delivery count " + maxDeliveryCount + '\n' +
            "snapshot " + snapshotBytes + " bytes, journal " + journalBytes + " bytes (" +
            (journalBytes - journalValidBytes) + " past the last valid entry)";
    }
}
