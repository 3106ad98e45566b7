package io.spool.queue;

import io.spool.Spool;

import java.nio.file.Path;
import java.util.List;

/**
 * Child process of {@link QueueCrashTest}: consumes subscription "work" until killed, acking every message but
 * "poison" ones, which it nacks. Prints {@code DELIVERED offset number} for each delivery and {@code ACKED offset}
 * once an ack has returned (and so is journaled under every-batch durability), and {@code IDLE} when nothing is
 * left to receive.
 */
public final class CrashingQueueConsumer
{
    private CrashingQueueConsumer()
    {
    }

    public static void main(final String[] args)
    {
        try (Spool spool = Spool.builder(Path.of(args[0])).stateDurability(StateDurability.EVERY_BATCH)
            .backgroundMaintenance(false).open())
        {
            final Subscription work = spool.subscription("work");
            System.out.println("READY");
            System.out.flush();
            while (true)
            {
                final List<Delivery> deliveries = work.receive(5, 100);
                if (deliveries.isEmpty())
                {
                    System.out.println("IDLE");
                    System.out.flush();
                }
                for (final Delivery delivery : deliveries)
                {
                    System.out.println("DELIVERED " + delivery.offset() + " " + delivery.deliveryNumber());
                    if (delivery.valueAsString().startsWith("poison"))
                    {
                        work.nack(delivery.receipt());
                    }
                    else
                    {
                        work.ack(delivery.receipt());
                        System.out.println("ACKED " + delivery.offset());
                    }
                    System.out.flush();
                }
            }
        }
    }
}
