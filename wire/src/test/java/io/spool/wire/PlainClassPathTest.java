package io.spool.wire;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application with Spool on a plain class path needs no JVM flags: the README's embedded and client examples
 * run in a child JVM started with nothing but {@code -cp}, on this build's Java and on every other JDK installed
 * beside it (so a Java 25 next to Java 17 is tried too), and print the record they published. On Java 24 and
 * later the JDK itself warns once that Agrona calls {@code sun.misc.Unsafe}'s memory methods; that line, and only
 * that one, is allowed there (see the commit that chose Agrona 1.x).
 */
class PlainClassPathTest
{
    private static final long CHILD_SECONDS = 120;

    @TempDir
    Path dir;

    @Test
    void embeddedQuickStartRunsWithoutFlags() throws Exception
    {
        for (final Path java : installedJavas())
        {
            final ChildRun run = runChild(java, EmbeddedQuickStart.class, "embedded");
            assertThat(run.out).as("%s printed", java).contains("stream: partition ", " offset 0 order #1",
                "queue: order #1");
            assertNoUnexpectedWarnings(java, run);
        }
    }

    @Test
    void clientQuickStartRunsWithoutFlags() throws Exception
    {
        for (final Path java : installedJavas())
        {
            final ChildRun run = runChild(java, ClientQuickStart.class, "client");
            assertThat(run.out).as("%s printed", java).contains(" offset 0 order #1", "queue: order #1");
            assertNoUnexpectedWarnings(java, run);
        }
    }

    private ChildRun runChild(final Path java, final Class<?> main, final String name) throws Exception
    {
        final Path data = Files.createTempDirectory(dir, name);
        final Path out = dir.resolve(name + ".out");
        final Path err = dir.resolve(name + ".err");
        final Process child = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
            main.getName(), data.toString())
            .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!child.waitFor(CHILD_SECONDS, TimeUnit.SECONDS))
        {
            child.destroyForcibly().waitFor();
        }
        final ChildRun run = new ChildRun(Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8), child.exitValue());
        assertThat(run.exit).as("%s exit code; stderr:%n%s", java, run.err).isZero();
        return run;
    }

    /**
     * Log lines may come on standard error; a warning, an error or a stack trace may not, except the warning the JDK
     * prints about {@code sun.misc.Unsafe} on Java 24 and later (and only there).
     */
    private static void assertNoUnexpectedWarnings(final Path java, final ChildRun run) throws Exception
    {
        final boolean unsafeWarns = featureVersion(java) >= 24;
        final List<String> unexpected = new ArrayList<>();
        for (final String line : run.err.split("\\R"))
        {
            final boolean alarming = line.contains("WARN") || line.contains("ERROR") || line.contains("Exception") ||
                line.contains("SLF4J") || line.startsWith("\tat ");
            if (alarming && !(unsafeWarns && isJdkUnsafeWarning(line)))
            {
                unexpected.add(line);
            }
        }
        assertThat(unexpected).as("%s wrote on stderr:%n%s", java, run.err).isEmpty();
    }

    private static boolean isJdkUnsafeWarning(final String line)
    {
        return line.startsWith("WARNING: A terminally deprecated method in sun.misc.Unsafe has been called") ||
            line.startsWith("WARNING: sun.misc.Unsafe::") ||
            line.startsWith("WARNING: Please consider reporting this to the maintainers of class org.agrona.") ||
            line.startsWith("WARNING: sun.misc.Unsafe will be removed in a future release");
    }

    /** This build's Java and every other JDK beside it (the siblings of its installation directory). */
    static List<Path> installedJavas() throws IOException
    {
        final Path home = Path.of(System.getProperty("java.home"));
        final Set<Path> javas = new LinkedHashSet<>();
        javas.add(home.resolve("bin").resolve("java").toRealPath());
        final Path installations = home.getParent();
        if (installations != null)
        {
            try (Stream<Path> siblings = Files.list(installations))
            {
                siblings.map(sibling -> sibling.resolve("bin").resolve("java")).filter(Files::isExecutable)
                    .map(PlainClassPathTest::realPath).sorted().forEach(javas::add);
            }
        }
        return List.copyOf(javas);
    }

    private static Path realPath(final Path path)
    {
        try
        {
            return path.toRealPath();
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    private static int featureVersion(final Path java) throws Exception
    {
        final Process version = new ProcessBuilder(java.toString(), "-XshowSettings:properties", "-version")
            .redirectErrorStream(true).start();
        final String settings = new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        version.waitFor();
        final int at = settings.indexOf("java.specification.version = ");
        assertThat(at).as("the version of %s", java).isNotNegative();
        final String rest = settings.substring(at + "java.specification.version = ".length()).strip();
        return Integer.parseInt(rest.split("\\s")[0]);
    }

    private record ChildRun(String out, String err, int exit)
    {
    }
}
