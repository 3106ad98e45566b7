package io.spool.wire;

import io.spool.api.queue.ConsumerOptions;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.testing.SlowTest;
import io.spool.wire.client.ProducerConfig;
import io.spool.wire.client.RemoteQueueConsumer;
import io.spool.wire.client.SpoolClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An idle server costs under 1% of a core: with a topic, a subscription and a connected push consumer that has
 * nothing to do, the server's threads together spend under 1% of an idle interval on CPU. It reads the threads'
 * own CPU time, which load on the machine can only lower, so the check does not flake on a busy machine. (The
 * interval is slept through because idleness is what is measured; nothing waits for a timeout.)
 */
@SlowTest
class IdleServerCostTest
{
    private static final long IDLE_MILLIS = 3_000;
    private static final double MAX_SHARE_OF_INTERVAL = 0.01;

    @TempDir
    Path dir;
    private WireFixture fixture;

    @AfterEach
    void close()
    {
        fixture.close();
    }

    @Test
    void idleServerThreadsUseUnderOnePercentOfACore() throws Exception
    {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        threads.setThreadCpuTimeEnabled(true);
        fixture = new WireFixture(dir);
        final SpoolClient client = fixture.connect();
        client.admin().createTopic("orders", WireFixture.topic(2));
        client.admin().createSubscription("billing", "orders", SubscriptionSettings.DEFAULT);
        final CountDownLatch delivered = new CountDownLatch(1);
        final RemoteQueueConsumer consumer = client.subscription("billing").consume(ConsumerOptions.prefetch(100),
            (delivery, self) ->
            {
                self.ack(delivery);
                delivered.countDown();
            });
        client.newProducer(ProducerConfig.defaults(), RoundTripTest.ignoringListener())
            .send("orders", null, "order #1".getBytes(StandardCharsets.UTF_8)).join();
        assertThat(delivered.await(30, TimeUnit.SECONDS)).as("the consumer got the message").isTrue();
        // let every thread pass from its last bit of work into idleness before measuring
        Thread.sleep(200);

        final Map<String, Long> before = serverCpuNanos(threads);
        final long start = System.nanoTime();
        Thread.sleep(IDLE_MILLIS);
        final long elapsed = System.nanoTime() - start;
        final Map<String, Long> after = serverCpuNanos(threads);

        final Map<String, Long> usedByThread = new TreeMap<>();
        long used = 0;
        for (final Map.Entry<String, Long> thread : after.entrySet())
        {
            final long spent = thread.getValue() - before.getOrDefault(thread.getKey(), 0L);
            usedByThread.put(thread.getKey(), TimeUnit.NANOSECONDS.toMicros(spent));
            used += spent;
        }
        assertThat(usedByThread).as("server threads").isNotEmpty();
        assertThat((double)used / elapsed)
            .as("share of %d ms the server's threads spent on CPU; microseconds by thread: %s",
                TimeUnit.NANOSECONDS.toMillis(elapsed), usedByThread)
            .isLessThan(MAX_SHARE_OF_INTERVAL);
        consumer.close();
    }

    /** CPU time of the engine's and the server's threads (named spool-...), not the client's, by name and id. */
    private static Map<String, Long> serverCpuNanos(final ThreadMXBean threads)
    {
        final Map<String, Long> cpu = new HashMap<>();
        for (final Thread thread : Thread.getAllStackTraces().keySet())
        {
            final String name = thread.getName();
            if (name.startsWith("spool-") && !name.startsWith("spool-client"))
            {
                cpu.put(name + "#" + thread.getId(), threads.getThreadCpuTime(thread.getId()));
            }
        }
        return cpu;
    }
}
