package io.spool.perf.lab;

import io.spool.api.queue.ConsumerOptions;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.Subscription;

import java.nio.file.Path;

/**
 * Prefetch and fairness: a fast (5 ms) and a slow (50 ms) push consumer share 200 messages, with prefetch 1 and
 * with the largest prefetch. Thread-safe (stateless).
 */
public final class PrefetchLab implements Lab
{
    private static final int MESSAGES = 200;
    private static final long FAST_MILLIS = 5;
    private static final long SLOW_MILLIS = 50;

    @Override
    public String name()
    {
        return "prefetch";
    }

    @Override
    public String summary()
    {
        return "prefetch 1 against unlimited with a fast (5 ms) and a slow (50 ms) consumer, 200 messages";
    }

    @Override
    public LabTable run(final Path dir)
    {
        // the ideal: both consumers busy until the end, 200 messages at 200/s + 20/s
        final long idealMillis = Math.round(MESSAGES / (1000.0 / FAST_MILLIS + 1000.0 / SLOW_MILLIS) * 1000);
        final Split one = share(dir.resolve("prefetch-1"), 1, false);
        final Split slowFirst = share(dir.resolve("unlimited-slow-first"), ConsumerOptions.MAX_PREFETCH, true);
        final Split fastFirst = share(dir.resolve("unlimited-fast-first"), ConsumerOptions.MAX_PREFETCH, false);
        return new LabTable("prefetch: fairness between a fast and a slow consumer",
            MESSAGES + " messages waiting; consumers take " + FAST_MILLIS + " ms and " + SLOW_MILLIS +
                " ms each; manual acks; virtual time")
            .row("prefetch 1: fast / slow took", one.fast + " / " + one.slow,
                LabTable.measured(LabTable.RABBITMQ, "177-180 / 20-23"))
            .setByLab("prefetch 1: all done after", LabEngine.seconds(one.millis),
                LabTable.measured(LabTable.RABBITMQ, "1.02-1.23 s") + " (ideal " + LabEngine.seconds(idealMillis) + ")",
                "the consumers' simulated " + FAST_MILLIS + " ms and " + SLOW_MILLIS + " ms a message on the virtual " +
                    "clock, with no network or scheduling in between")
            .row("unlimited, slow attached first: fast / slow took", slowFirst.fast + " / " + slowFirst.slow,
                "RabbitMQ 4.1 lab: 100 / 100")
            .setByLab("unlimited, slow attached first: all done after", LabEngine.seconds(slowFirst.millis),
                "RabbitMQ 4.1 lab: 5.1 s", "the same simulated processing times")
            .row("unlimited, fast attached first: fast / slow took", fastFirst.fast + " / " + fastFirst.slow,
                "RabbitMQ 4.1 lab: 100 / 100")
            .setByLab("unlimited, fast attached first: all done after", LabEngine.seconds(fastFirst.millis),
                "RabbitMQ 4.1 lab: 5.1 s", "the same simulated processing times")
            .note("Consumers with credit take turns of up to 32 ready messages, so consumers attached together share a")
            .note("backlog; here each attaches while the other has none, so with a prefetch above the backlog the first")
            .note("one attached takes it all. With prefetch 1 the fast consumer keeps asking for more and the run ends")
            .note("close to the ideal. The 4.1 lab figures are from earlier runs on RabbitMQ 4.1, not repeated.");
    }

    private record Split(int fast, int slow, long millis)
    {
    }

    private static Split share(final Path dir, final int prefetch, final boolean slowFirst)
    {
        try (LabEngine lab = new LabEngine(dir))
        {
            lab.createTopic("jobs");
            final Subscription jobs = lab.spool().createSubscription("jobs", "jobs", SubscriptionSettings.DEFAULT);
            for (int i = 0; i < MESSAGES; i++)
            {
                lab.publish("jobs", null, "job-" + i);
            }
            try (PushSimulation simulation = new PushSimulation(lab, jobs))
            {
                final PushSimulation.SimulatedConsumer slow;
                final PushSimulation.SimulatedConsumer fast;
                if (slowFirst)
                {
                    slow = simulation.attach(prefetch, SLOW_MILLIS);
                    fast = simulation.attach(prefetch, FAST_MILLIS);
                }
                else
                {
                    fast = simulation.attach(prefetch, FAST_MILLIS);
                    slow = simulation.attach(prefetch, SLOW_MILLIS);
                }
                simulation.runUntil(() -> fast.acked() + slow.acked() == MESSAGES,
                    message -> PushSimulation.Outcome.ACK);
                return new Split(fast.acked(), slow.acked(), lab.now());
            }
        }
    }
}
