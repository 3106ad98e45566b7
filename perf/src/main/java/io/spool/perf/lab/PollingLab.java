package io.spool.perf.lab;

import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.Subscription;

import java.nio.file.Path;

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
            .setByLab("short polling (wait 0, " + SHORT_POLL_ROUND_TRIP_MILLIS + " ms round trip): receive calls",
                shortPolls, LabTable.measured(LabTable.ELASTICMQ, "1,000-1,107"),
                "the 6 s window divided by the simulated " + SHORT_POLL_ROUND_TRIP_MILLIS + " ms round trip")
            .row("long polling (wait 5 s): receive calls", longPolls, LabTable.measured(LabTable.ELASTICMQ, "2"))
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

    private static int longPoll(final Path dir)
    {
        try (LabEngine lab = new LabEngine(dir))
        {
            lab.createTopic("inbox");
            final Subscription inbox = lab.spool().createSubscription("inbox", "inbox", SubscriptionSettings.DEFAULT);
            try (LongPoller poller = new LongPoller(inbox, LONG_POLL_WAIT_MILLIS))
            {
                for (long due = LONG_POLL_WAIT_MILLIS; due <= WINDOW_MILLIS; due += LONG_POLL_WAIT_MILLIS)
                {
                    lab.advanceTo(due, inbox);
                    poller.awaitNextCall();
                }
                lab.advanceTo(WINDOW_MILLIS, inbox);
                final int calls = poller.calls();
                poller.stopAfterCurrentCall();
                lab.advanceTo(WINDOW_MILLIS + LONG_POLL_WAIT_MILLIS, inbox);
                return calls;
            }
        }
    }
}
