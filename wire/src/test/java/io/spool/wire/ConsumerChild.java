package io.spool.wire;

import io.spool.api.queue.ConsumerOptions;
import io.spool.wire.client.ClientConfig;
import io.spool.wire.client.RemoteDelivery;
import io.spool.wire.client.RemoteQueueConsumer;
import io.spool.wire.client.SpoolClient;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A push consumer run in a child JVM by {@link KilledConsumerTest}: it takes deliveries as they come, and handles
 * them one at a time at its parent's pace: it prints {@code GOT <value>}, acks when not in auto-ack mode, and
 * waits for a line on its input before it handles the next. Deliveries it took and did not handle when it is
 * killed are the ones in flight.
 * <p>
 * Arguments: port, subscription, {@code auto} or {@code manual}, prefetch.
 */
public final class ConsumerChild
{
    private ConsumerChild()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final int port = Integer.parseInt(args[0]);
        final boolean autoAck = "auto".equals(args[2]);
        final int prefetch = Integer.parseInt(args[3]);
        final LinkedBlockingQueue<RemoteDelivery> taken = new LinkedBlockingQueue<>();
        final BufferedReader parent = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        final SpoolClient client = SpoolClient.connect(ClientConfig.builder().port(port).clientName("child").build());
        final RemoteQueueConsumer consumer = client.subscription(args[1]).consume(
            autoAck ? ConsumerOptions.autoAck(prefetch) : ConsumerOptions.prefetch(prefetch),
            (delivery, self) -> taken.add(delivery.copy()));
        System.out.println("READY");
        System.out.flush();
        while (true)
        {
            final RemoteDelivery delivery = taken.take();
            System.out.println("GOT " + delivery.valueAsString());
            System.out.flush();
            consumer.ack(delivery.receipt());
            if (parent.readLine() == null)
            {
                return;
            }
        }
    }
}
