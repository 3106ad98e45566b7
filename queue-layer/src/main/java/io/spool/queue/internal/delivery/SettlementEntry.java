package io.spool.queue.internal.delivery;

import io.spool.queue.Delivery;
import io.spool.queue.internal.state.Settlement;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Layout of one entry in a push consumer's settlement ring, written on the consumer thread and read by the agent.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                          Partition                            |  0
 *  +---------------------------------------------------------------+
 *  |                       Delivery Number                         |  4
 *  +---------------------------------------------------------------+
 *  |                           Offset                              |  8
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |   Argument: extension or delay millis, or an ack run's number |  16
 *  |                                                               |
 *  +---------------------------------------------------------------+
 * </pre>
 * A settlement ({@link Settlement#code()}) and the first ack of a run ({@link AckRun#OPENED}) use this layout; the end
 * of a run ({@link AckRun#ENDED}) carries only the run's number and count. Stateless.
 */
public final class SettlementEntry
{
    static final int PARTITION_OFFSET = 0;
    static final int DELIVERY_NUMBER_OFFSET = 4;
    static final int OFFSET_OFFSET = 8;
    static final int ARGUMENT_OFFSET = 16;
    public static final int LENGTH = 24;

    private SettlementEntry()
    {
    }

    public static void write(final MutableDirectBuffer buffer, final int index, final int partition,
        final int deliveryNumber, final long offset, final long argument)
    {
        buffer.putInt(index + PARTITION_OFFSET, partition);
        buffer.putInt(index + DELIVERY_NUMBER_OFFSET, deliveryNumber);
        buffer.putLong(index + OFFSET_OFFSET, offset);
        buffer.putLong(index + ARGUMENT_OFFSET, argument);
    }

    static int partition(final DirectBuffer buffer, final int index)
    {
        return buffer.getInt(index + PARTITION_OFFSET);
    }

    static int deliveryNumber(final DirectBuffer buffer, final int index)
    {
        return buffer.getInt(index + DELIVERY_NUMBER_OFFSET);
    }

    static long offset(final DirectBuffer buffer, final int index)
    {
        return buffer.getLong(index + OFFSET_OFFSET);
    }

    static long argument(final DirectBuffer buffer, final int index)
    {
        return buffer.getLong(index + ARGUMENT_OFFSET);
    }
}
