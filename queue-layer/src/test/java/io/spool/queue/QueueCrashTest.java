package io.spool.queue;

import io.spool.Spool;
import io.spool.api.log.Durability;
import io.spool.api.log.LogConfig;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.TopicConfig;
import io.spool.testing.CrashTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kills a consuming engine with SIGKILL at random moments: no acked message may come back, and no message may be
 * delivered more often than its delivery limit allows, however many crashes it lives through.
 */
@CrashTest
class QueueCrashTest
{
    private static final int MESSAGES = 400;
    private static final int DELIVERY_LIMIT = 3;

    @TempDir
    Path dir;

    @Test
    void acksAndDeliveryCountsSurviveSigkill() throws Exception
    {
        try (Spool spool = Spool.builder(dir).backgroundMaintenance(false).open())
        {
            spool.createTopic("jobs", new TopicConfig(1, LogConfig.builder().durability(Durability.EVERY_BATCH).build()));
            for (int i = 0; i < MESSAGES; i++)
            {
                final String value = (i % 50 == 7 ? "poison-" : "job-") + i;
                spool.newProducer().send("jobs", null, value.getBytes(StandardCharsets.UTF_8)).join();
            }
            spool.createSubscription("work", "jobs", SubscriptionSettings.builder().deliveryLimit(DELIVERY_LIMIT).build());
        }
        final Random random = new Random(42);
        final Set<Long> acked = new HashSet<>();
        final Map<Long, Integer> highestDelivery = new HashMap<>();
        for (int round = 0; round < 6 && acked.size() < MESSAGES - MESSAGES / 50; round++)
        {
            runAndKill(random.nextInt(150) + 20, acked, highestDelivery);
            try (Spool spool = Spool.builder(dir).backgroundMaintenance(false).open())
            {
                final Subscription work = spool.subscription("work");
                final List<Delivery> peek = work.receive(10_000, 0);
                for (final Delivery delivery : peek)
                {
                    assertThat(acked).as("acked offset %d came back", delivery.offset()).doesNotContain(delivery.offset());
                    assertThat(delivery.deliveryNumber()).as("delivery number of %d", delivery.offset())
                        .isGreaterThan(highestDelivery.getOrDefault(delivery.offset(), 0))
                        .isLessThanOrEqualTo(DELIVERY_LIMIT + 1);
                    highestDelivery.merge(delivery.offset(), delivery.deliveryNumber(), Math::max);
                }
                work.nack(peek.stream().map(Delivery::receipt).collect(java.util.stream.Collectors.toList()));
            }
        }
        assertThat(highestDelivery.values()).allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(DELIVERY_LIMIT + 1));
        assertThat(acked).isNotEmpty();
    }

    private void runAndKill(final int linesBeforeKill, final Set<Long> acked, final Map<Long, Integer> highest)
        throws Exception
    {
        final Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), CrashingQueueConsumer.class.getName(), dir.toString())
            .redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8)))
        {
            int lines = 0;
            String line;
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (lines < linesBeforeKill && System.nanoTime() < deadline && (line = out.readLine()) != null)
            {
                final String[] parts = line.split(" ");
                if (parts[0].equals("IDLE"))
                {
                    break;
                }
                if (parts[0].equals("ACKED"))
                {
                    acked.add(Long.parseLong(parts[1]));
                    lines++;
                }
                else if (parts[0].equals("DELIVERED"))
                {
                    final long offset = Long.parseLong(parts[1]);
                    final int number = Integer.parseInt(parts[2]);
                    assertThat(number).as("delivery number of %d", offset).isLessThanOrEqualTo(DELIVERY_LIMIT + 1);
                    highest.merge(offset, number, Math::max);
                    lines++;
                }
            }
            child.destroyForcibly();
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
    }
}
