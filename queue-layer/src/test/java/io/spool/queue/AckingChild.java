package io.spool.queue;

import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.internal.state.SubscriptionPartitionState;
import io.spool.queue.internal.store.SubscriptionStateStore;
import org.agrona.concurrent.SystemEpochClock;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * The process {@link KillDuringAcksTest} kills: acquires, acks, nacks, rejects and releases messages forever, and
 * after each commit prints what that commit made durable, one line each: {@code D offset delivery},
 * {@code A offset}, {@code X offset}, and {@code S} after a snapshot.
 */
public final class AckingChild
{
    static final int DELIVERY_LIMIT = 5;

    private AckingChild()
    {
    }

    static SubscriptionSettings settings()
    {
        return SubscriptionSettings.builder().deliveryLimit(DELIVERY_LIMIT).lockTimeoutMillis(60_000).build();
    }

    static StateStoreConfig config(final String durability)
    {
        final StateDurability policy = "every_batch".equals(durability) ? StateDurability.EVERY_BATCH :
            "interval".equals(durability) ? StateDurability.interval(5) : StateDurability.NONE;
        return StateStoreConfig.DEFAULT.compactionThresholdBytes(64 * 1024).durability(policy);
    }

    public static void main(final String[] args)
    {
        final PrintStream out = new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out),
            1 << 16), false);
        final StringBuilder deaths = new StringBuilder();
        final SubscriptionStateStore store = SubscriptionStateStore.open(Path.of(args[0]), 0, settings(), 0,
            SystemEpochClock.INSTANCE, config(args[1]),
            (offset, reason, deliveries) -> deaths.append("X ").append(offset).append('\n'));
        final SubscriptionPartitionState state = store.state();
        state.logEnd(1L << 40);
        final SplittableRandom random = new SplittableRandom(Long.parseLong(args[2]));
        final long[] offsets = new long[20];
        final int[] deliveries = new int[20];
        final int[] count = new int[1];
        final StringBuilder lines = new StringBuilder();
        for (long round = 1; ; round++)
        {
            count[0] = 0;
            state.acquire(offsets.length, 1, (offset, deliveryNumber) ->
            {
                offsets[count[0]] = offset;
                deliveries[count[0]++] = deliveryNumber;
            });
            store.commit();
            for (int i = 0; i < count[0]; i++)
            {
                lines.append("D ").append(offsets[i]).append(' ').append(deliveries[i]).append('\n');
            }
            for (int i = 0; i < count[0]; i++)
            {
                final int choice = random.nextInt(10);
                if (choice < 4)
                {
                    state.ack(offsets[i], deliveries[i]);
                    lines.append("A ").append(offsets[i]).append('\n');
                }
                else if (choice < 8)
                {
                    state.nack(offsets[i], deliveries[i]);
                }
                else if (choice < 9)
                {
                    state.reject(offsets[i], deliveries[i]);
                }
            }
            if (round % 7 == 0)
            {
                state.releaseConsumer(1);
            }
            store.commit();
            if (round % 50 == 0)
            {
                store.snapshot();
                lines.append("S\n");
            }
            out.append(lines).append(deaths);
            out.flush();
            lines.setLength(0);
            deaths.setLength(0);
        }
    }
}
