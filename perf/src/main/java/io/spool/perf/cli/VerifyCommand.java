package io.spool.perf.cli;

import io.spool.Spool;
import io.spool.log.tools.LogInspector;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

@Command(
    name = "verify",
    mixinStandardHelpOptions = true,
    description = {
        "Checks every log under a directory without changing anything: each segment's offset range, its records' "
            + "lengths and CRCs, its offset and time indexes, and that segments follow each other without gaps.",
        "In a data directory it also checks the small files beside the logs (topic metadata, subscription and "
            + "exchange catalogs, subscription snapshots, each with its copy) and names each damaged one and what "
            + "an open does about it: restore it from its copy, rebuild it, or quarantine the one subscription.",
        "Safe on a log a running store has open; it names the holes readers skip and reports what recovery would "
            + "cut or rebuild."},
    exitCodeListHeading = "Exit codes:%n",
    exitCodeList = {"0:every log and small file is healthy",
        "1:a log or small file is damaged or an index needs rebuilding, or an error", "2:bad usage"})
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
        final boolean dataDirectory = Files.isDirectory(directory.resolve("stream")) ||
            Files.isDirectory(directory.resolve("queue"));
        if (logs.isEmpty() && !dataDirectory)
        {
            throw new IllegalArgumentException("no log (a directory of segment files) under " + directory);
        }
        final PrintWriter out = spec.commandLine().getOut();
        final List<String> damagedFiles = dataDirectory ? Spool.checkFiles(directory) : List.of();
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
        if (dataDirectory)
        {
            damagedFiles.forEach(problem -> out.println("damaged: " + problem));
            out.println(damagedFiles.isEmpty() ? "topic metadata, catalogs and snapshots healthy" :
                damagedFiles.size() + (damagedFiles.size() == 1 ? " small file" : " small files") + " damaged");
        }
        out.flush();
        return healthy == logs.size() && damagedFiles.isEmpty() ? 0 : UNHEALTHY;
    }
}
