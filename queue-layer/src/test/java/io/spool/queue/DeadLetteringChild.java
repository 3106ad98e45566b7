package io.spool.queue;

import io.spool.Spool;
import io.spool.stream.StreamProducer;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Semaphore;

/**
 * Child process of {@link DeadLetterCrashTest}: kills {@code args[1]} messages of subscription "work" (delivery limit
 * 1) and halts the JVM at once after the call that killed the last one returned, as a SIGKILL would. A message
 * delivered for the first time is rejected or nacked as {@code args[2]}'s letters say ({@code r} or {@code n}); one
 * delivered a second time is nacked, which passes the limit. Prints {@code DEAD partition offset} as each killing call
 * returns. With {@code args[3]} = {@code busy}, a thread keeps topic "noise" on the same pipeline busy meanwhile,
 * so that the dead letters wait behind its records.
 */
public final class DeadLetteringChild
{
    private static final int NOISE_IN_FLIGHT = 256;

    private DeadLetteringChild()
    {
    }

    public static void main(final String[] args)
    {
        final int deaths = Integer.parseInt(args[1]);
        final String moves = args[2];
        final Spool spool = Spool.builder(Path.of(args[0])).pipelines(1).backgroundMaintenance(false).open();
        if (args[3].equals("busy"))
        {
            final Thread noise = new Thread(() -> publishNoise(spool), "noise");
            noise.setDaemon(true);
            noise.start();
        }
        final Subscription work = spool.subscription("work");
        int killed = 0;
        int move = 0;
        while (true)
        {
            final List<Delivery> deliveries = work.receive(1, 1_000);
            if (deliveries.isEmpty())
            {
                System.out.println("EMPTY");
                System.out.flush();
                Runtime.getRuntime().halt(0);
            }
            final Delivery delivery = deliveries.get(0);
            if (delivery.deliveryNumber() > 1)
            {
                work.nack(delivery.receipt());
            }
            else if (moves.charAt(move++ % moves.length()) == 'r')
            {
                work.reject(delivery.receipt());
            }
            else
            {
                work.nack(delivery.receipt());
                continue;
            }
            System.out.println("DEAD " + delivery.partition() + " " + delivery.offset());
            System.out.flush();
            if (++killed == deaths)
            {
                Runtime.getRuntime().halt(137);
            }
        }
    }

    private static void publishNoise(final Spool spool)
    {
        final StreamProducer producer = spool.streams().newProducer();
        final Semaphore inFlight = new Semaphore(NOISE_IN_FLIGHT);
        final byte[] value = new byte[512];
        while (true)
        {
            inFlight.acquireUninterruptibly();
            producer.send("noise", null, value).whenComplete((placed, error) -> inFlight.release());
        }
    }
}
