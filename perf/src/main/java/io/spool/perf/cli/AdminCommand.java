package io.spool.perf.cli;

import io.spool.perf.report.JsonValues;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * What the admin commands ({@code topics}, {@code subscriptions}, {@code groups}, {@code exchanges}) share: their
 * output, in text or as JSON, and their listings. Each subcommand opens its endpoint, acts through {@link Endpoint},
 * and closes it. Not thread-safe.
 */
abstract class AdminCommand implements Runnable
{
    @Spec
    CommandSpec spec;

    /** The subcommands, for the error a bare command gets: {@code list, create, describe or delete}. */
    abstract String subcommandNames();

    @Override
    public void run()
    {
        throw new ParameterException(spec.commandLine(), "a subcommand is needed: " + subcommandNames());
    }

    /**
     * Prints the names {@code names} lists, one a line, sorted; with {@code --json} an array of what
     * {@code view} makes of each.
     */
    final void list(final EndpointOptions endpoint, final JsonOption output,
        final Function<Endpoint, List<String>> names, final BiFunction<Endpoint, String, Map<String, Object>> view)
    {
        try (Endpoint spool = endpoint.open())
        {
            final List<String> sorted = names.apply(spool).stream().sorted().toList();
            if (output.json)
            {
                final List<Object> views = new ArrayList<>(sorted.size());
                sorted.forEach(name -> views.add(view.apply(spool, name)));
                printJson(views);
            }
            else
            {
                sorted.forEach(name -> print("%s%n", name));
            }
        }
    }

    /** The subcommand's command line, so that a usage error names it ({@code spool exchanges bind: ...}). */
    final CommandLine subcommand(final String name)
    {
        return spec.commandLine().getSubcommands().get(name);
    }

    final void print(final String format, final Object... args)
    {
        final PrintWriter out = spec.commandLine().getOut();
        out.print(String.format(Locale.ROOT, format, args));
        out.flush();
    }

    final void printJson(final Object value)
    {
        final PrintWriter out = spec.commandLine().getOut();
        out.println(JsonValues.write(value));
        out.flush();
    }

    /** {@code --json} of the commands that print what they find. Not thread-safe. */
    static final class JsonOption
    {
        @Option(names = "--json", description = "Print one JSON value instead of text, for scripts.")
        boolean json;
    }
}
