package io.spool.perf.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;
import picocli.CommandLine.UnmatchedArgumentException;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** {@code spool}: the command line of Spool, started by the {@code spool} script at the repository root. */
@Command(
    name = "spool",
    mixinStandardHelpOptions = true,
    versionProvider = BuildInfo.Provider.class,
    description = {"One memory-mapped log, read as a stream and as a queue.",
        "Every option can also come from the environment variable SPOOL_<OPTION> (--metrics-port: " +
            "SPOOL_METRICS_PORT) or from the properties file of --config (metrics-port=9420); the command line " +
            "wins over the environment, and the environment over the file."},
    subcommands = {BenchCommand.class, VerifyCommand.class, DumpCommand.class, io.spool.perf.lab.LabCommand.class,
        ServerCommand.class,
        PingCommand.class,
        TopicsCommand.class,
        SubscriptionsCommand.class,
        GroupsCommand.class,
        ExchangesCommand.class,
        ProduceCommand.class,
        ConsumeCommand.class,
        TailCommand.class,
        CommandLine.HelpCommand.class})
public final class SpoolCommand implements Runnable
{
    /** Exit code of a usage error: a bad option, setting or file, found before anything ran. */
    static final int USAGE_ERROR = 2;

    @Spec
    CommandSpec spec;

    @Option(names = "--config", scope = ScopeType.INHERIT, paramLabel = "FILE",
        description = "Read option defaults from this properties file (keys: long option names, as port=7420).")
    Path config;

    @Option(names = "--log-level", scope = ScopeType.INHERIT, paramLabel = "LEVEL",
        description = "Logging on stderr: trace, debug, info (default), warn, error or off.")
    void logLevel(final String level)
    {
        try
        {
            LogSetup.level(level);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(spec.commandLine(), "--log-level: " + ex.getMessage());
        }
    }

    public static void main(final String[] args)
    {
        LogSetup.defaults();
        System.exit(execute(args, System.getenv(), new PrintWriter(System.out, true),
            new PrintWriter(System.err, true)));
    }

    /**
     * Runs {@code args} with defaults from {@code environment} and from the file of {@code --config}.
     *
     * @return the exit code: 0 done, 1 failed, 2 a usage error.
     */
    static int execute(final String[] args, final Map<String, String> environment, final PrintWriter out,
        final PrintWriter err)
    {
        final SpoolDefaults defaults;
        try
        {
            defaults = SpoolDefaults.of(environment, args);
        }
        catch (final SpoolDefaults.BadSettingException ex)
        {
            err.println("spool: " + ex.getMessage());
            err.flush();
            return USAGE_ERROR;
        }
        return newCommandLine(defaults).setOut(out).setErr(err).execute(args);
    }

    /** The command line with no defaults but the built-in ones. */
    static CommandLine newCommandLine()
    {
        return newCommandLine(SpoolDefaults.of(Map.of(), new String[0]));
    }

    /**
     * The command line with its error handling: a failed run prints one line naming the cause, exit code 1; a
     * usage error one line naming the option, setting or file and where its value came from, exit code 2.
     */
    static CommandLine newCommandLine(final SpoolDefaults defaults)
    {
        final CommandLine commandLine = new CommandLine(new SpoolCommand());
        commandLine.setDefaultValueProvider(defaults);
        return commandLine
            .setExecutionStrategy(parseResult ->
            {
                final List<CommandLine> commands = parseResult.asCommandLineList();
                final CommandLine running = commands.get(commands.size() - 1);
                try
                {
                    defaults.checkKeysFor(running.getCommandSpec());
                }
                catch (final SpoolDefaults.BadSettingException ex)
                {
                    throw new ParameterException(running, ex.getMessage());
                }
                return new CommandLine.RunLast().execute(parseResult);
            })
            .setParameterExceptionHandler((ex, args) -> usageError(ex, defaults))
            .setExecutionExceptionHandler((ex, failed, parseResult) ->
            {
                failed.getErr().println(failed.getCommandSpec().qualifiedName() + ": " + describe(ex));
                failed.getErr().flush();
                return 1;
            });
    }

    private static int usageError(final ParameterException ex, final SpoolDefaults defaults)
    {
        final CommandLine failed = ex.getCommandLine();
        final String command = failed.getCommandSpec().qualifiedName();
        final ArgSpec argument = ex.getArgSpec();
        final String source = argument == null ? null : defaults.sourceOf(argument);
        final StringBuilder line = new StringBuilder(command).append(": ");
        if (source != null && ex.getValue() != null && source.endsWith("=" + ex.getValue()))
        {
            line.append(source).append(": ");
        }
        line.append(ex.getMessage());
        if (ex instanceof UnmatchedArgumentException unmatched && !unmatched.getSuggestions().isEmpty())
        {
            line.append(" (did you mean ").append(String.join(" or ", unmatched.getSuggestions())).append("?)");
        }
        line.append("; see ").append(command).append(" --help");
        failed.getErr().println(line);
        failed.getErr().flush();
        return USAGE_ERROR;
    }

    private static String describe(final Throwable failure)
    {
        return failure.getMessage() == null ? failure.toString() : failure.getMessage();
    }

    @Override
    public void run()
    {
        throw new ParameterException(spec.commandLine(), "a subcommand is needed");
    }
}
