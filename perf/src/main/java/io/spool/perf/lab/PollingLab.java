package io.spool.perf.lab;

import io.spool.queue.Subscription;
import io.spool.queue.SubscriptionSettings;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Short against long polling of an empty queue for 6 s: how many receive calls each makes. Thread-safe (stateless).
 */
public final class PollingLab implements Lab
{
    private static final long WINDOW_MILLIS = 6_000;
    private static final long LONG_POLL_WAIT_MILLIS = 5_000;
    /** What one short poll costs the client, in virtual time: an immediate answer over a local round trip. */
    private static final long SHORT_POLL_ROUND_TRIP_MILLIS = 1;

    @Override
    public String name()
    {
        return "polling";
    }

    @Override
    public String summary()
    {
        return "short against long polling (5 s wait) of an empty queue for 6 s: the number of receive calls";
    }

    @Override
    public LabTable run(final Path dir)
    {
        final int shortPolls = shortPoll(dir.resolve("short"));
        final int longPolls = longPoll(dir.resolve("long"));
        return new LabTable("polling: short against long polling of an empty queue",
            "one consumer polls an empty subscription for " + LabEngine.seconds(WINDOW_MILLIS) + " of virtual time")
            .row("short polling (wait 0, " + SHORT_POLL_ROUND_TRIP_MILLIS + " ms round trip): receive calls",
                shortPolls, "SQS (ElasticMQ): ~5,000")
            .row("long polling (wait 5 s): receive calls", longPolls, "SQS (ElasticMQ): 2")
            .note("A long poll waits in the subscription until a message arrives or its wait has passed by the engine's")
            .note("clock; the short-poll count is only the window divided by the client's round trip.");
    }

    private static int shortPoll(final Path dir)
    {
        try (LabEngine lab = new LabEngine(dir))
        {
            lab.createTopic("inbox");
            final Subscription inbox = lab.spool().createSubscription("inbox", "inbox", SubscriptionSettings.DEFAULT);
            int calls = 0;
            while (lab.now() < WINDOW_MILLIS)
            {
                inbox.receive(10, 0);
                calls++;
                lab.advanceTo(lab.now() + SHORT_POLL_ROUND_TRIP_MILLIS);
            }
            return calls;
        }
    }

    /**
     * A long poll blocks its caller until the engine's clock passes its wait, so the consumer runs on its own thread
     * and the lab moves the clock only while that thread is parked inside a receive: each wait then starts at a
     * known virtual time, whatever the machine's load.
     */
    private static int longPoll(final Path dir)
    {
        try (LabEngine lab = new LabEngine(dir))
        {
            lab.createTopic("inbox");
            final Subscription inbox = lab.spool().createSubscription("inbox", "inbox", SubscriptionSettings.DEFAULT);
            final AtomicInteger started = new AtomicInteger();
            final AtomicInteger returned = new AtomicInteger();
            final AtomicInteger lastCall = new AtomicInteger(Integer.MAX_VALUE);
            final Thread consumer = new Thread(() ->
            {
                while (started.get() < lastCall.get())
                {
                    started.incrementAndGet();
                    inbox.receive(10, LONG_POLL_WAIT_MILLIS);
                    returned.incrementAndGet();
                }
            }, "lab-long-poller");
            consumer.start();
            awaitParkedIn(consumer, started, 1);
            for (long due = LONG_POLL_WAIT_MILLIS; due <= WINDOW_MILLIS; due += LONG_POLL_WAIT_MILLIS)
            {
                final int call = started.get();
                lab.advanceTo(due, inbox);
                awaitAtLeast(returned, call);
                awaitParkedIn(consumer, started, call + 1);
            }
            lab.advanceTo(WINDOW_MILLIS, inbox);
            final int calls = started.get();
            lastCall.set(calls);
            lab.advanceTo(WINDOW_MILLIS + LONG_POLL_WAIT_MILLIS, inbox);
            join(consumer);
            return calls;
        }
    }

    /** Spins until the consumer started call {@code call} and parked in it, which it does only inside receive. */
    private static void awaitParkedIn(final Thread consumer, final AtomicInteger started, final int call)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (started.get() != call || consumer.getState() != Thread.State.TIMED_WAITING)
        {
            if (System.nanoTime() > deadline)
            {
                throw new IllegalStateException("the long poller did not start receive call " + call + " in 30 s");
            }
            Thread.onSpinWait();
        }
    }

    private static void awaitAtLeast(final AtomicInteger counter, final int value)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (counter.get() < value)
        {
            if (System.nanoTime() > deadline)
            {
                throw new IllegalStateException("receive call " + value + " did not return in 30 s");
            }
            Thread.onSpinWait();
        }
    }

    private static void join(final Thread consumer)
    {
        try
        {
            consumer.join(TimeUnit.SECONDS.toMillis(30));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the long poller finished", ex);
        }
        if (consumer.isAlive())
        {
            throw new IllegalStateException("the long poller did not finish within 30 s");
        }
    }
}
