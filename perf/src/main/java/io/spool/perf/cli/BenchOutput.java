package io.spool.perf.cli;

import io.spool.perf.report.BenchResult;
import io.spool.perf.report.BenchRun;
import io.spool.perf.report.HtmlReport;
import io.spool.perf.report.ResultFormatter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.Map;

/** Prints a benchmark's result as text or as one line of JSON, and writes its HTML report. Stateless. */
final class BenchOutput
{
    private BenchOutput()
    {
    }

    /**
     * Runs a benchmark, prints each of its results and writes their report: a bench command's whole work. Settings
     * the benchmark refuses are the command line's mistake.
     *
     * @return the command's exit code.
     */
    static int runAndPrint(final Supplier<List<BenchRun>> benchmark, final RunOutputOptions output,
        final CommandSpec spec) throws IOException
    {
        final List<BenchRun> runs;
        try
        {
            runs = benchmark.get();
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(spec.commandLine(), ex.getMessage(), ex);
        }
        for (final BenchRun run : runs)
        {
            print(run.result(), output.json, spec.commandLine().getOut());
        }
        writeReport(output.report, runs, spec);
        return 0;
    }

    static void print(final BenchResult result, final boolean json, final PrintWriter out)
    {
        if (json)
        {
            out.println(ResultFormatter.json(result, environment()));
        }
        else
        {
            out.print(ResultFormatter.text(result));
        }
        out.flush();
    }

    /**
     * The machine and build a result comes from, for its JSON: cores, the load when it ended, Java, the OS, and
     * Spool's version and commit. For a run against a server it is the machine of the benchmark's clients.
     */
    static Map<String, Object> environment()
    {
        final BuildInfo build = BuildInfo.current();
        final Map<String, Object> environment = new LinkedHashMap<>();
        environment.put("cpus", Runtime.getRuntime().availableProcessors());
        final double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        environment.put("loadAverage", load < 0 ? null : load);
        environment.put("java", Runtime.version().toString());
        environment.put("javaVm", System.getProperty("java.vm.name"));
        environment.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " +
            System.getProperty("os.arch"));
        environment.put("spoolVersion", build.version());
        environment.put("spoolCommit", build.commit());
        return environment;
    }

    /**
     * Writes the HTML report of {@code runs} to {@code file} and says so on stderr; nothing when {@code file} is
     * null (no {@code --report}).
     */
    static void writeReport(final Path file, final List<BenchRun> runs, final CommandSpec spec) throws IOException
    {
        if (file == null)
        {
            return;
        }
        final String command = "spool " + String.join(" ", spec.commandLine().getParseResult().originalArgs());
        HtmlReport.write(file, command, whenAndWhere(), runs);
        spec.commandLine().getErr().println("report written to " + file);
        spec.commandLine().getErr().flush();
    }

    /** The date, the machine's cores and load, and the JVM: what a reader of a report needs to weigh its figures. */
    private static String whenAndWhere()
    {
        final double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        final BuildInfo build = BuildInfo.current();
        return String.format(Locale.ROOT, "%s · %d cores%s · Java %s · spool %s (commit %s)",
            DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now().truncatedTo(ChronoUnit.SECONDS)),
            Runtime.getRuntime().availableProcessors(),
            load < 0 ? "" : String.format(Locale.ROOT, ", load average %.1f", load),
            Runtime.version(), build.version(), build.commit());
    }
}
