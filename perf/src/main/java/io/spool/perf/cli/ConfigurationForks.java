package io.spool.perf.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Reader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a benchmark's configurations one JVM each, as JMH forks its benchmarks: the JIT compiles each
 * configuration's hot code for that configuration alone. Each child is this JVM's command again (its Java, its JVM
 * options, its class path) with the benchmark's arguments for one configuration; its standard output and error
 * are passed on as they come. Not thread-safe: one run at a time.
 * <p>
 * Design note: in one JVM the queue bench's prefetch-1,000 drains ran after those at prefetch 1 and 100 with code
 * compiled for one-message runs, and drained far slower than when prefetch 1,000 ran first or alone, however long
 * the warm-up.
 */
final class ConfigurationForks
{
    private final List<String> jvm;
    private final PrintWriter out;
    private final PrintWriter err;

    ConfigurationForks(final List<String> jvm, final PrintWriter out, final PrintWriter err)
    {
        this.jvm = List.copyOf(jvm);
        this.out = out;
        this.err = err;
    }

    /** This JVM's java, options and class path, and the command line's main class. */
    static ConfigurationForks ofThisJvm(final PrintWriter out, final PrintWriter err)
    {
        final List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(SpoolCommand.class.getName());
        return new ConfigurationForks(command, out, err);
    }

    /** The command that runs {@code arguments} in a child. */
    List<String> command(final List<String> arguments)
    {
        final List<String> command = new ArrayList<>(jvm);
        command.addAll(arguments);
        return command;
    }

    /**
     * Runs {@code arguments} in a child JVM and waits for it.
     *
     * @return the child's exit code.
     */
    int run(final List<String> arguments) throws IOException, InterruptedException
    {
        final Process child = new ProcessBuilder(command(arguments)).start();
        final Thread errors = new Thread(() -> copy(child.getErrorStream(), err), "spool-fork-stderr");
        errors.setDaemon(true);
        errors.start();
        copy(child.getInputStream(), out);
        final int exit = child.waitFor();
        errors.join();
        return exit;
    }

    private static void copy(final InputStream from, final PrintWriter to)
    {
        try (Reader in = new InputStreamReader(from, StandardCharsets.UTF_8))
        {
            final char[] chunk = new char[8192];
            int read;
            while ((read = in.read(chunk)) > 0)
            {
                to.write(chunk, 0, read);
                to.flush();
            }
        }
        catch (final IOException ex)
        {
            to.println("the benchmark's child process stream failed: " + ex.getMessage());
            to.flush();
        }
    }
}
