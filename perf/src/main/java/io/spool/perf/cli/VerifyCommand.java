package io.spool.perf.cli;

import io.spool.log.tools.LogInspector;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

@Command(
    name = "verify",
    mixinStandardHelpOptions = true,
    description = {
        "Checks every log under a directory without changing anything: each segment's offset range, its records' "
            + "lengths and CRCs, its offset and time indexes, and that segments follow each other without gaps.",
        "Safe on a log a running store has open; it names the holes readers skip and reports what recovery would "
            + "cut or rebuild."},
    exitCodeListHeading = "Exit codes:%n",
    exitCodeList = {"0:every log is healthy", "1:a log is damaged or an index needs rebuilding, or an error",
        "2:bad usage"})
final class VerifyCommand implements Callable<Integer>
{
    static final int UNHEALTHY = 1;

    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..1", defaultValue = "spool-data", paramLabel = "DIR",
        description = "A partition log directory, or a data directory to search for logs (default: ${DEFAULT-VALUE}).")
    Path directory;

    @Override
    public Integer call()
    {
        final List<Path> logs = LogDirectories.logsUnder(directory);
        if (logs.isEmpty())
        {
            throw new IllegalArgumentException("no log (a directory of segment files) under " + directory);
        }
        final PrintWriter out = spec.commandLine().getOut();
        int healthy = 0;
        try (PrintStream stream = new PrintStream(new WriterOutputStream(out), true, StandardCharsets.UTF_8))
        {
            for (final Path log : logs)
            {
                final LogInspector.VerifyReport report = LogInspector.verify(log);
                report.print(stream);
                healthy += report.isHealthy() ? 1 : 0;
            }
        }
        out.println(healthy + " of " + logs.size() + " logs healthy");
        out.flush();
        return healthy == logs.size() ? 0 : UNHEALTHY;
    }
}
