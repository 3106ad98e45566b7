package io.spool.perf.bench;

import io.spool.perf.report.Throughput;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Chronicle Queue, the peer Spool's embedded ingest and replay are measured against, run by its own benchmark from
 * the peers' harness (set up with {@code peer chronicle setup}) in a JVM of its own, with the flags Chronicle needs
 * on Java 17 read from the harness's {@code jvm-flags.txt}: Chronicle and its flags never enter Spool's process or
 * its artifacts. Each run appends the records with one {@code ExcerptAppender}, then tails them with a zero-copy
 * {@code readingDocument} tailer; a fork does {@link #RUNS_PER_FORK} runs and the last, warm one counts. Not
 * thread-safe: one run at a time.
 */
public final class ChroniclePeer
{
    public static final String APPENDER = "chronicle queue appender (writeBytes, forked JVM)";
    public static final String TAILER = "chronicle queue zero-copy tailer (readingDocument, forked JVM)";
    /** The harness's own guide takes the last of three runs in one JVM: the first two warm its JIT. */
    static final int RUNS_PER_FORK = 3;
    private static final String MAIN_CLASS = "peers.ChronicleBench";
    private static final String JVM_FLAGS = "jvm-flags.txt";
    private static final Pattern RESULT = Pattern.compile(
        "^run (\\d+): (append \\(writeBytes\\)|tail readingDocument \\(0c\\))\\s+([\\d,]+) msgs in\\s+[\\d.]+ s =\\s+([\\d,]+) msgs/s.*?(ok|MISMATCH.*)?$");

    private final Path home;
    private final List<String> jvmFlags;

    private ChroniclePeer(final Path home, final List<String> jvmFlags)
    {
        this.home = home;
        this.jvmFlags = List.copyOf(jvmFlags);
    }

    /**
     * The harness set up in {@code home}, or where the harness sets itself up by default when {@code home} is null:
     * {@code $PEER_WORK/chronicle}, else {@code ~/.cache/spool-peers/chronicle}.
     *
     * @throws IllegalArgumentException when the harness is not set up (built) there.
     */
    public static ChroniclePeer locate(final Path home)
    {
        final Path dir = home != null ? home : defaultHome();
        if (!Files.isDirectory(dir.resolve("target").resolve("classes")) || !Files.isDirectory(dir.resolve("lib")) ||
            !Files.isRegularFile(dir.resolve(JVM_FLAGS)))
        {
            throw new IllegalArgumentException("Chronicle Queue's peer harness is not set up in " + dir +
                ": run 'peer chronicle setup' from the shared peers directory, or give --chronicle-home DIR where it is");
        }
        try
        {
            final List<String> flags = new ArrayList<>();
            for (final String line : Files.readAllLines(dir.resolve(JVM_FLAGS), StandardCharsets.UTF_8))
            {
                if (!line.isBlank() && !line.startsWith("#"))
                {
                    flags.add(line.trim());
                }
            }
            return new ChroniclePeer(dir, flags);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + dir.resolve(JVM_FLAGS), ex);
        }
    }

    private static Path defaultHome()
    {
        final String peerWork = System.getenv("PEER_WORK");
        final Path work = peerWork != null && !peerWork.isEmpty() ? Path.of(peerWork) :
            Path.of(System.getProperty("user.home"), ".cache", "spool-peers");
        return work.resolve("chronicle");
    }

    /** What one fork measured in its last run. */
    public record Round(Throughput append, Throughput tail)
    {
    }

    /**
     * Appends and tails {@code records} records of {@code valueBytes} bytes in a fresh queue under
     * {@code directory}, in a forked JVM.
     *
     * @throws IllegalStateException when the fork fails or its tail does not read back what it appended.
     */
    public Round run(final long records, final int valueBytes, final Path directory)
        throws InterruptedException
    {
        final List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.add("-Xms1g");
        command.add("-Xmx1g");
        command.addAll(jvmFlags);
        command.add("-Dchronicle.analytics.disable=true");
        command.add("-Dchronicle.announcer.disable=true");
        command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
        command.add("-cp");
        command.add(home.resolve("target").resolve("classes") + File.pathSeparator + home.resolve("lib") +
            File.separator + "*");
        command.add(MAIN_CLASS);
        command.add(Long.toString(records));
        command.add(Integer.toString(valueBytes));
        command.add(Integer.toString(RUNS_PER_FORK));
        command.add(directory.toString());
        final List<String> output = new ArrayList<>();
        final int exit;
        try
        {
            final Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
            try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8)))
            {
                String line;
                while ((line = lines.readLine()) != null)
                {
                    output.add(line);
                }
            }
            exit = child.waitFor();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot start Chronicle Queue's benchmark: " + String.join(" ", command), ex);
        }
        if (exit != 0)
        {
            throw new IllegalStateException("Chronicle Queue's benchmark exited with " + exit + ":\n" +
                String.join("\n", output));
        }
        return parse(output, records, valueBytes);
    }

    /** The last run's append and zero-copy tail figures from the benchmark's output. */
    static Round parse(final List<String> output, final long records, final int valueBytes)
    {
        Throughput append = null;
        Throughput tail = null;
        for (final String line : output)
        {
            final Matcher matcher = RESULT.matcher(line.trim());
            if (!matcher.matches() || Integer.parseInt(matcher.group(1)) != RUNS_PER_FORK)
            {
                continue;
            }
            final long count = Long.parseLong(matcher.group(3).replace(",", ""));
            final double perSec = Double.parseDouble(matcher.group(4).replace(",", ""));
            final long nanos = Math.max(1, Math.round(count / perSec * 1e9));
            if (matcher.group(2).startsWith("append"))
            {
                append = new Throughput(APPENDER, count, valueBytes, nanos);
            }
            else
            {
                if (count != records || matcher.group(5) == null || !matcher.group(5).equals("ok"))
                {
                    throw new IllegalStateException("Chronicle Queue's tailer did not read back its " + records +
                        " records: " + line);
                }
                tail = new Throughput(TAILER, count, valueBytes, nanos);
            }
        }
        if (append == null || tail == null)
        {
            throw new IllegalStateException("no figures of run " + RUNS_PER_FORK + " in Chronicle Queue's output:\n" +
                String.join("\n", output));
        }
        return new Round(append, tail);
    }
}
