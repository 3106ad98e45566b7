package io.spool.perf.cli;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import picocli.CommandLine;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs {@code spool} commands as a user runs them, in this JVM: one at a time with its output captured, or in the
 * background ({@code spool server} on an ephemeral port) until the test ends: register it as an extension. Not
 * thread-safe.
 */
final class CommandRunner implements AfterEachCallback
{
    static final Duration BOUND = Duration.ofSeconds(30);
    private static final Pattern LISTENING = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");

    private final List<Background> background = new ArrayList<>();

    /** Interrupts every background command and waits for it to end. */
    @Override
    public void afterEach(final ExtensionContext context) throws InterruptedException
    {
        for (final Background command : background)
        {
            command.thread.interrupt();
            command.thread.join(BOUND.toMillis());
            assertThat(command.thread.isAlive()).as("%s still running", command.args).isFalse();
        }
        background.clear();
    }

    /** Starts {@code spool server} on an ephemeral port of {@code dataDirectory}; returns the client options. */
    List<String> startServer(final Path dataDirectory, final String... options) throws InterruptedException
    {
        final Background server = startInBackground(with(List.of("server", "--port", "0", "--data-dir",
            dataDirectory.toString()), options));
        final Matcher listening = LISTENING.matcher(server.out.awaitContaining("listening on", BOUND));
        assertThat(listening.find()).as(server.out.toString()).isTrue();
        return List.of("--server", "127.0.0.1:" + listening.group(1));
    }

    Background startInBackground(final List<String> args)
    {
        final Background command = new Background(args);
        background.add(command);
        command.thread.start();
        return command;
    }

    static List<String> with(final List<String> first, final String... more)
    {
        final List<String> all = new ArrayList<>(first);
        all.addAll(List.of(more));
        return all;
    }

    /** Exactly one line on stderr, starting with {@code expected}, nothing on stdout, and the exit code. */
    static void assertOneLineFailure(final Result result, final int exitCode, final String expected)
    {
        assertThat(result.exitCode()).as(result.err()).isEqualTo(exitCode);
        assertThat(result.err().lines()).as(result.err()).hasSize(1);
        assertThat(result.err()).startsWith(expected);
        assertThat(result.out()).isEmpty();
    }

    /** Runs {@code command} followed by {@code where}'s options (picocli takes options after the parameters). */
    static Result run(final List<String> where, final String... command)
    {
        return runWithInput("", with(List.of(command), where.toArray(String[]::new)));
    }

    static Result runWithInput(final String input, final List<String> args)
    {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CommandLine commandLine = SpoolCommand.newCommandLine()
            .setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
        final ProduceCommand produce = commandLine.getSubcommands().get("produce").getCommand();
        produce.input = new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8));
        final int exitCode = commandLine.execute(args.toArray(String[]::new));
        return new Result(exitCode, out.toString(), err.toString());
    }

    record Result(int exitCode, String out, String err)
    {
    }

    /** A command that runs until it is done or interrupted, on its own thread. */
    static final class Background
    {
        final List<String> args;
        final AwaitableWriter out = new AwaitableWriter();
        final AwaitableWriter err = new AwaitableWriter();
        final AtomicInteger exitCode = new AtomicInteger(-1);
        final Thread thread;

        Background(final List<String> args)
        {
            this.args = args;
            this.thread = new Thread(() -> exitCode.set(SpoolCommand.newCommandLine()
                .setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true))
                .execute(args.toArray(String[]::new))), "spool " + args.get(0));
        }
    }
}
