package io.spool.wire;

import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.Subscription;
import io.spool.testing.CrashTest;
import io.spool.wire.client.ProducerConfig;
import io.spool.wire.client.RemoteDelivery;
import io.spool.wire.client.RemoteProducer;
import io.spool.wire.client.RemoteSubscription;
import io.spool.wire.client.SpoolClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static io.spool.wire.RoundTripTest.ignoringListener;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A push consumer in a child JVM is killed with SIGKILL after handling 20 of 100 messages. With auto-ack the
 * messages it had taken but not handled are lost; with manual acks and prefetch 10 nothing is lost and only
 * unacked ones come again, at once (the lock timeout is far longer than the test).
 */
@CrashTest
class KilledConsumerTest
{
    private static final int MESSAGES = 100;
    private static final int HANDLED = 20;
    private static final int PREFETCH = 10;
    private static final Duration BOUND = Duration.ofSeconds(20);

    @TempDir
    Path dir;
    private WireFixture fixture;
    private SpoolClient client;

    @BeforeEach
    void start()
    {
        fixture = new WireFixture(dir);
        client = fixture.connect();
        client.admin().createTopic("work", WireFixture.topic(1));
        client.admin().createSubscription("workers", "work",
            SubscriptionSettings.builder().lockTimeoutMillis(600_000).build());
        final RemoteProducer producer = client.newProducer(ProducerConfig.defaults(), ignoringListener());
        for (int i = 0; i < MESSAGES; i++)
        {
            producer.send("work", null, null, ("m" + i).getBytes(StandardCharsets.UTF_8), i);
        }
        assertThat(producer.awaitConfirms()).isTrue();
    }

    @AfterEach
    void stop()
    {
        fixture.close();
    }

    @Test
    void withAutoAckTheDeliveriesInFlightAreLost() throws Exception
    {
        final Set<String> handled = runAndKill("auto");
        final List<RemoteDelivery> rest = drain();

        assertThat(handled).hasSize(HANDLED);
        assertThat(rest).noneMatch(RemoteDelivery::redelivered);
        assertThat(rest).extracting(RemoteDelivery::valueAsString).doesNotContainAnyElementsOf(handled);
        final int lost = MESSAGES - handled.size() - rest.size();
        assertThat(lost).as("taken by the child, auto-acked, never handled").isPositive();
    }

    @Test
    void withManualAcksAndPrefetchNothingIsLostAndOnlyUnackedOnesComeAgain() throws Exception
    {
        final Set<String> handled = runAndKill("manual");
        final List<RemoteDelivery> rest = drain();

        final Set<String> all = new HashSet<>(handled);
        rest.forEach(d -> all.add(d.valueAsString()));
        assertThat(all).hasSize(MESSAGES);
        final List<RemoteDelivery> again = rest.stream().filter(RemoteDelivery::redelivered).toList();
        assertThat(again).as("only what the child held unacked (its acks may not have left it) comes again")
            .hasSizeLessThanOrEqualTo(PREFETCH);
        assertThat(rest.stream().filter(d -> handled.contains(d.valueAsString())))
            .as("a handled message comes again only as a redelivery").allMatch(RemoteDelivery::redelivered);
        assertThat(rest).hasSizeGreaterThanOrEqualTo(MESSAGES - HANDLED);
    }

    /** Runs the child, lets it handle {@link #HANDLED} messages, kills it, and returns what it handled. */
    private Set<String> runAndKill(final String mode) throws Exception
    {
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final Process child = new ProcessBuilder(java, "-Xmx128m",
            "-cp", System.getProperty("java.class.path"), ConsumerChild.class.getName(),
            Integer.toString(fixture.server().port()), "workers", mode, Integer.toString(PREFETCH))
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
        final Set<String> handled = new HashSet<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
            StandardCharsets.UTF_8)); OutputStream in = child.getOutputStream())
        {
            assertThat(out.readLine()).isEqualTo("READY");
            while (handled.size() < HANDLED)
            {
                final String line = out.readLine();
                assertThat(line).startsWith("GOT ");
                handled.add(line.substring(4));
                if (handled.size() < HANDLED)
                {
                    in.write('\n');
                    in.flush();
                }
            }
            child.destroyForcibly();
            assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
        }
        final Subscription embedded = fixture.spool().subscription("workers");
        assertThat(WireFixture.await(() -> embedded.metrics().consumers() == 0, BOUND))
            .as("the server noticed the dead connection").isTrue();
        return handled;
    }

    /** Everything ready now, pulled without waiting for any lock to expire. */
    private List<RemoteDelivery> drain()
    {
        final RemoteSubscription queue = client.subscription("workers");
        final List<RemoteDelivery> all = new ArrayList<>();
        List<RemoteDelivery> batch;
        do
        {
            batch = queue.receive(MESSAGES, 0);
            all.addAll(batch);
            batch.forEach(d -> queue.ack(d.receipt()));
        }
        while (!batch.isEmpty());
        return all;
    }
}
