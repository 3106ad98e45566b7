package io.spool.perf.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code spool}: the command line of Spool, started by the {@code spool} script at the repository root. */
@Command(
    name = "spool",
    mixinStandardHelpOptions = true,
    version = "spool 0.1.0",
    description = "One memory-mapped log, read as a stream and as a queue.",
    subcommands = {BenchCommand.class, VerifyCommand.class, DumpCommand.class, io.spool.perf.lab.LabCommand.class,
        ServerCommand.class,
        TopicsCommand.class,
        ProduceCommand.class,
        ConsumeCommand.class,
        TailCommand.class,
        CommandLine.HelpCommand.class})
public final class SpoolCommand implements Runnable
{
    @Spec
    CommandSpec spec;

    public static void main(final String[] args)
    {
        System.exit(newCommandLine().execute(args));
    }

    /** The command line with its error handling: a failed run prints one line naming the cause, exit code 1. */
    static CommandLine newCommandLine()
    {
        return new CommandLine(new SpoolCommand())
            .setExecutionExceptionHandler((ex, commandLine, parseResult) ->
            {
                commandLine.getErr().println(commandLine.getCommandSpec().qualifiedName() + ": " + describe(ex));
                commandLine.getErr().flush();
                return 1;
            });
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
