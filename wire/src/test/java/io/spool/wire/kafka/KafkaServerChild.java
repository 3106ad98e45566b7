package io.spool.wire.kafka;

import io.spool.Spool;

import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * An engine and its Kafka listener in a child JVM, for a test to kill: {@code dataDirectory port}. Prints
 * {@code ready PORT} once it listens, then serves until it is killed.
 */
public final class KafkaServerChild
{
    private KafkaServerChild()
    {
    }

    public static void main(final String[] args)
    {
        final Spool engine = Spool.open(Path.of(args[0]));
        final KafkaListener listener = KafkaListener.start(engine, KafkaListenerConfig.builder()
            .port(Integer.parseInt(args[1])).build());
        System.out.println("ready " + listener.port());
        System.out.flush();
        while (true)
        {
            LockSupport.park();
        }
    }
}
