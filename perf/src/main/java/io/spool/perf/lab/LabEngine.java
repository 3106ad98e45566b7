package io.spool.perf.lab;

import io.spool.Spool;
import io.spool.queue.Subscription;
import io.spool.stream.TopicConfig;
import org.agrona.concurrent.CachedEpochClock;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;

/**
 * An engine for one lab: Spool on the lab's directory with a hand-moved clock and no background maintenance, so
 * every timeout fires when the lab moves time, not when the machine happens to be slow. Time is counted in
 * virtual milliseconds from the start of the lab. Not thread-safe: one lab thread moves the clock.
 */
final class LabEngine implements AutoCloseable
{
    /** 2026-01-01T00:00:00Z: a fixed start, so record timestamps and ages are the same every run. */
    private static final long START_EPOCH_MILLIS = 1_767_225_600_000L;

    private final CachedEpochClock clock = new CachedEpochClock();
    private final Spool spool;

    LabEngine(final Path dir)
    {
        clock.update(START_EPOCH_MILLIS);
        spool = Spool.builder(dir).clock(clock).backgroundMaintenance(false).open();
    }

    Spool spool()
    {
        return spool;
    }

    /** Creates a topic of one partition, so a queue's order is the order of publishing. */
    void createTopic(final String name)
    {
        spool.createTopic(name, TopicConfig.of(1));
    }

    /** Publishes and waits for the confirm. */
    void publish(final String topic, final String key, final String value)
    {
        spool.newProducer().send(topic, key == null ? null : key.getBytes(StandardCharsets.UTF_8),
            value.getBytes(StandardCharsets.UTF_8)).join();
    }

    /** Virtual milliseconds since the lab started. */
    long now()
    {
        return clock.time() - START_EPOCH_MILLIS;
    }

    /** Moves the clock to {@code millis} after the start and waits until each subscription has acted on it. */
    void advanceTo(final long millis, final Subscription... subscriptions)
    {
        if (millis < now())
        {
            throw new IllegalArgumentException("time only moves forward: at " + now() + " ms, asked for " + millis);
        }
        clock.update(START_EPOCH_MILLIS + millis);
        for (final Subscription subscription : subscriptions)
        {
            subscription.sync();
        }
    }

    /** Virtual milliseconds as seconds: {@code 2.05 s}. */
    static String seconds(final long millis)
    {
        return String.format(Locale.ROOT, "%.2f s", millis / 1000.0);
    }

    @Override
    public void close()
    {
        spool.close();
    }
}
