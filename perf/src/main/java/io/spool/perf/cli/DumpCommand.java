package io.spool.perf.cli;

import io.spool.log.tools.LogInspector;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;

@Command(
    name = "dump",
    mixinStandardHelpOptions = true,
    description = {
        "Prints the records of one partition log, one line each: offset, timestamp, key, headers, value size and "
            + "the start of the value. Names each hole it passes (records damage took from a closed segment) and "
            + "stops at damage in the active segment.",
        "Reads only; safe on a log a running store has open."})
final class DumpCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "LOG_DIR", description = "A partition log directory (it holds the segment files).")
    Path logDirectory;

    @Option(names = "--from", defaultValue = "0", paramLabel = "OFFSET",
        description = "First offset to print (default: ${DEFAULT-VALUE}).")
    long from;

    @Option(names = "--count", defaultValue = "100", paramLabel = "N",
        description = "Records to print at most (default: ${DEFAULT-VALUE}).")
    long count;

    @Override
    public Integer call()
    {
        if (from < 0)
        {
            throw new ParameterException(spec.commandLine(), "--from must be an offset of 0 or more, was " + from);
        }
        if (count < 0)
        {
            throw new ParameterException(spec.commandLine(), "--count must be 0 or more, was " + count);
        }
        if (!LogDirectories.isLog(logDirectory))
        {
            throw new IllegalArgumentException("not a log directory (no segment files): " + logDirectory);
        }
        final PrintWriter out = spec.commandLine().getOut();
        try (PrintStream stream = new PrintStream(new WriterOutputStream(out), true, StandardCharsets.UTF_8))
        {
            LogInspector.dump(logDirectory, from, count, stream);
        }
        out.flush();
        return 0;
    }
}
