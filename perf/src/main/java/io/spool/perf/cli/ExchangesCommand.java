package io.spool.perf.cli;

import io.spool.api.routing.Binding;
import io.spool.api.routing.Exchange;
import io.spool.api.routing.ExchangeType;
import io.spool.api.routing.HeadersMatch;
import io.spool.api.routing.UnknownExchangeException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code spool exchanges}: declares, lists, describes and deletes exchanges, and binds subscriptions to them. */
@Command(
    name = "exchanges",
    mixinStandardHelpOptions = true,
    description = "Declares, lists, describes and deletes exchanges, and binds subscriptions to them and unbinds " +
        "them, on a server (default) or a data directory.")
final class ExchangesCommand extends AdminCommand
{
    @Override
    String subcommandNames()
    {
        return "list, declare, describe, delete, bind or unbind";
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
        description = "Prints the exchanges, one a line, sorted; with --json each with its bindings.")
    int list(@Mixin final EndpointOptions endpoint, @Mixin final JsonOption output)
    {
        list(endpoint, output, spool -> spool.groupsAndExchanges().listExchanges().stream().map(Exchange::name).toList(),
            (spool, name) -> AdminViews.exchange(spool.groupsAndExchanges().exchange(name)));
        return 0;
    }

    @Command(name = "declare", mixinStandardHelpOptions = true,
        description = "Declares an exchange; the same declaration again changes nothing, a different one is refused.")
    int declare(
        @Parameters(paramLabel = "NAME", description = "The exchange's name.") final String name,
        @Option(names = "--type", required = true, paramLabel = "TYPE",
            description = "direct (by routing key), topic (by pattern), fanout (to every binding) or headers.")
        final String type,
        @Option(names = "--alternate-exchange", paramLabel = "EXCHANGE",
            description = "Where a message no binding takes goes instead.") final String alternate,
        @Mixin final EndpointOptions endpoint)
    {
        final ExchangeType kind = Choices.parse(subcommand("declare"), "--type", type, ExchangeType.values());
        try (Endpoint spool = endpoint.open())
        {
            spool.groupsAndExchanges().declareExchange(name, kind, alternate);
            print("declared %s exchange %s on %s%n", Choices.name(kind), name, spool.where());
        }
        return 0;
    }

    @Command(name = "describe", mixinStandardHelpOptions = true,
        description = "Prints the exchange's type, alternate exchange and bindings.")
    int describe(
        @Parameters(paramLabel = "NAME", description = "The exchange's name.") final String name,
        @Mixin final EndpointOptions endpoint,
        @Mixin final JsonOption output)
    {
        try (Endpoint spool = endpoint.open())
        {
            final Exchange exchange = spool.groupsAndExchanges().exchange(name);
            if (output.json)
            {
                printJson(AdminViews.exchange(exchange));
                return 0;
            }
            print("exchange %s: %s, alternate exchange %s, %d binding(s)%n", exchange.name(),
                Choices.name(exchange.type()),
                exchange.alternateExchange() == null ? "none" : exchange.alternateExchange(),
                exchange.bindings().size());
            exchange.bindings().forEach(binding -> print("  -> %s%n", AdminViews.bindingLine(binding)));
        }
        return 0;
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, description = "Deletes an exchange and its bindings.")
    int delete(
        @Parameters(paramLabel = "NAME", description = "The exchange's name.") final String name,
        @Mixin final EndpointOptions endpoint)
    {
        try (Endpoint spool = endpoint.open())
        {
            if (!spool.groupsAndExchanges().deleteExchange(name))
            {
                throw new UnknownExchangeException(name);
            }
            print("deleted exchange %s on %s%n", name, spool.where());
        }
        return 0;
    }

    /** What a binding matches, read as its exchange's type. Not thread-safe. */
    static final class BindingOptions
    {
        @Option(names = "--key", paramLabel = "KEY",
            description = "The routing key (direct) or pattern (topic: * one word, # any words, as orders.*.eu).")
        String key;

        @Option(names = "--header", paramLabel = "NAME=VALUE",
            description = "A header a message must carry (headers exchange); repeat for more.")
        Map<String, String> headers;

        @Option(names = "--match", paramLabel = "MODE", defaultValue = "all",
            description = "Headers exchange: all (default) of the headers must match, or any one.")
        String match;
    }

    @Command(name = "bind", mixinStandardHelpOptions = true, description = "Binds a subscription to an exchange.")
    int bind(
        @Parameters(index = "0", paramLabel = "EXCHANGE", description = "The exchange.") final String exchange,
        @Parameters(index = "1", paramLabel = "SUBSCRIPTION", description = "The subscription.")
        final String subscription,
        @Mixin final BindingOptions matching,
        @Mixin final EndpointOptions endpoint)
    {
        return changeBinding("bind", exchange, subscription, matching, endpoint);
    }

    @Command(name = "unbind", mixinStandardHelpOptions = true,
        description = "Removes a binding: the same key, pattern or headers as it was bound with.")
    int unbind(
        @Parameters(index = "0", paramLabel = "EXCHANGE", description = "The exchange.") final String exchange,
        @Parameters(index = "1", paramLabel = "SUBSCRIPTION", description = "The subscription.")
        final String subscription,
        @Mixin final BindingOptions matching,
        @Mixin final EndpointOptions endpoint)
    {
        return changeBinding("unbind", exchange, subscription, matching, endpoint);
    }

    /** {@code bind} or {@code unbind}: the binding is read as the exchange's type. */
    private int changeBinding(final String command, final String exchange, final String subscription,
        final BindingOptions matching, final EndpointOptions endpoint)
    {
        try (Endpoint spool = endpoint.open())
        {
            final Binding binding = binding(command, spool.groupsAndExchanges().exchange(exchange).type(), subscription, matching);
            if (command.equals("bind"))
            {
                spool.groupsAndExchanges().bind(exchange, binding);
                print("bound %s to exchange %s on %s%n", AdminViews.bindingLine(binding), exchange, spool.where());
            }
            else if (spool.groupsAndExchanges().unbind(exchange, binding))
            {
                print("unbound %s from exchange %s on %s%n", AdminViews.bindingLine(binding), exchange,
                    spool.where());
            }
            else
            {
                throw new IllegalArgumentException("exchange " + exchange + " has no binding " +
                    AdminViews.bindingLine(binding));
            }
        }
        return 0;
    }

    /** The binding the options describe for an exchange of {@code type}; a usage error of {@code command} if none. */
    private Binding binding(final String command, final ExchangeType type, final String subscription,
        final BindingOptions options)
    {
        final boolean hasHeaders = options.headers != null && !options.headers.isEmpty();
        switch (type)
        {
            case DIRECT:
            case TOPIC:
                if (options.key == null || hasHeaders)
                {
                    throw new ParameterException(subcommand(command), "a " + Choices.name(type) +
                        " exchange binds by --key alone");
                }
                return type == ExchangeType.DIRECT ? Binding.direct(subscription, options.key) :
                    Binding.topic(subscription, options.key);
            case FANOUT:
                if (options.key != null || hasHeaders)
                {
                    throw new ParameterException(subcommand(command),
                        "a fanout exchange takes every message: bind it without --key or --header");
                }
                return Binding.fanout(subscription);
            default:
                if (!hasHeaders || options.key != null)
                {
                    throw new ParameterException(subcommand(command),
                        "a headers exchange binds by --header NAME=VALUE (one or more), without --key");
                }
                final Map<String, byte[]> required = new LinkedHashMap<>();
                options.headers.forEach((name, value) -> required.put(name, value.getBytes(StandardCharsets.UTF_8)));
                return Binding.headers(subscription, new HeadersMatch(Choices.parse(subcommand(command), "--match",
                    options.match, HeadersMatch.Mode.values()), required));
        }
    }
}
