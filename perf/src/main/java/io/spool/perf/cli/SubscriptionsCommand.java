package io.spool.perf.cli;

import io.spool.api.queue.RedriveResult;
import io.spool.api.queue.SubscriptionDescription;
import io.spool.api.queue.SubscriptionMetrics;
import io.spool.api.queue.SubscriptionSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code spool subscriptions}: creates, lists, describes, purges, redrives and deletes subscriptions. */
@Command(
    name = "subscriptions",
    mixinStandardHelpOptions = true,
    description = "Creates, lists, describes, purges, redrives and deletes subscriptions (a topic read as a queue) " +
        "on a server (default) or a data directory.")
final class SubscriptionsCommand extends AdminCommand
{
    @Override
    String subcommandNames()
    {
        return "list, create, describe, purge, redrive or delete";
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
        description = "Prints the subscriptions, one a line, sorted; with --json each as describe --json has it.")
    int list(@Mixin final EndpointOptions endpoint, @Mixin final JsonOption output)
    {
        list(endpoint, output, spool -> spool.admin().listSubscriptions(),
            (spool, name) -> AdminViews.subscription(spool.admin().describeSubscription(name)));
        return 0;
    }

    @Command(name = "create", mixinStandardHelpOptions = true,
        description = "Creates a subscription on a topic; every setting left out keeps its default.")
    int create(
        @Parameters(paramLabel = "NAME", description = "The subscription's name.") final String name,
        @Option(names = "--topic", required = true, paramLabel = "TOPIC", description = "The topic it reads.")
        final String topic,
        @Mixin final SubscriptionSettingsOptions settings,
        @Mixin final EndpointOptions endpoint)
    {
        final SubscriptionSettings chosen = settings.settings();
        try (Endpoint spool = endpoint.open())
        {
            spool.admin().createSubscription(name, topic, chosen);
            print("created subscription %s on topic %s on %s%n", name, topic, spool.where());
        }
        return 0;
    }

    @Command(name = "describe", mixinStandardHelpOptions = true,
        description = "Prints the subscription's topic, settings and metrics now.")
    int describe(
        @Parameters(paramLabel = "NAME", description = "The subscription's name.") final String name,
        @Mixin final EndpointOptions endpoint,
        @Mixin final JsonOption output)
    {
        try (Endpoint spool = endpoint.open())
        {
            final SubscriptionDescription subscription = spool.admin().describeSubscription(name);
            if (output.json)
            {
                printJson(AdminViews.subscription(subscription));
                return 0;
            }
            final SubscriptionMetrics metrics = subscription.metrics();
            print("subscription %s on topic %s%n", subscription.name(), subscription.topic());
            print("  %s%n", AdminViews.subscriptionSettingsLine(subscription.settings()));
            print("  ready %,d, in flight %,d, delayed %,d, dead %,d, redeliveries %,d, oldest ready %.1f s, " +
                "consumers %d, acks %,d%n", metrics.ready(), metrics.inFlight(), metrics.delayed(), metrics.dead(),
                metrics.redeliveries(), metrics.oldestReadyAgeMillis() / 1000.0, metrics.consumers(), metrics.acks());
        }
        return 0;
    }

    @Command(name = "purge", mixinStandardHelpOptions = true,
        description = {"Empties the subscription: what is ready, in flight and delayed is dropped (their receipts " +
            "are refused),", "and it goes on from its topic's end. The topic's records stay."})
    int purge(
        @Parameters(paramLabel = "NAME", description = "The subscription's name.") final String name,
        @Mixin final EndpointOptions endpoint)
    {
        try (Endpoint spool = endpoint.open())
        {
            final SubscriptionMetrics dropped = spool.admin().purgeSubscription(name);
            print("purged subscription %s on %s: dropped %,d ready, %,d in flight and %,d delayed message(s)%n",
                name, spool.where(), dropped.ready(), dropped.inFlight(), dropped.delayed());
        }
        return 0;
    }

    @Command(name = "redrive", mixinStandardHelpOptions = true,
        description = {"Publishes the messages that died in the subscription back to it, from its dead-letter topic.",
            "The dead letters stay in that topic: resume later runs with --from at the next offsets printed."})
    int redrive(
        @Parameters(paramLabel = "NAME", description = "The subscription's name.") final String name,
        @Option(names = "--from", defaultValue = "0", paramLabel = "OFFSET",
            description = "First offset of each dead-letter partition to read (default: 0).") final long from,
        @Option(names = "--to", paramLabel = "OFFSET",
            description = "Offset to stop before in each partition (default: its end).") final Long to,
        @Mixin final EndpointOptions endpoint,
        @Mixin final JsonOption output)
    {
        try (Endpoint spool = endpoint.open())
        {
            final RedriveResult result = spool.admin().redrive(name, from, to == null ? Long.MAX_VALUE : to);
            if (output.json)
            {
                final Map<String, Object> view = new LinkedHashMap<>();
                view.put("subscription", name);
                view.put("moved", result.moved());
                view.put("skipped", result.skipped());
                view.put("nextOffsets", Arrays.stream(result.nextOffset()).boxed().toList());
                printJson(view);
                return 0;
            }
            final StringBuilder next = new StringBuilder();
            for (int p = 0; p < result.nextOffset().length; p++)
            {
                next.append(p == 0 ? "" : ", ").append(p).append('@').append(result.nextOffset()[p]);
            }
            print("redrove %,d message(s) to subscription %s on %s, skipped %,d other record(s); next " +
                "partition@offset %s%n", result.moved(), name, spool.where(), result.skipped(), next);
        }
        return 0;
    }

    @Command(name = "delete", mixinStandardHelpOptions = true,
        description = "Deletes the subscription, its state and its bindings; the topic's records stay.")
    int delete(
        @Parameters(paramLabel = "NAME", description = "The subscription's name.") final String name,
        @Mixin final EndpointOptions endpoint)
    {
        try (Endpoint spool = endpoint.open())
        {
            spool.admin().deleteSubscription(name);
            print("deleted subscription %s on %s%n", name, spool.where());
        }
        return 0;
    }
}
