package io.spool.perf.docs;

import io.spool.testing.SlowTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application with Spool on a plain class path needs no JVM flags: the README's programs (the embedded and the
 * client quick start) are compiled as {@link DocExamplesTest} compiles them and run in a child JVM started with
 * nothing but {@code -cp}, on this build's Java and on every other JDK installed beside it (so a Java 25 next to
 * Java 17 is tried too); each prints what its output block shows. The surefire argLine carries no module flags,
 * and neither does the child. On Java 24 and later the JDK itself warns once that Agrona calls
 * {@code sun.misc.Unsafe}'s memory methods; that notice, and only that one, is allowed there.
 */
@SlowTest
class ReadmeWithoutFlagsTest
{
    private static final long CHILD_SECONDS = 120;

    @TempDir
    Path dir;

    @Test
    void theReadmesProgramsRunInAPlainJvmOnEveryInstalledJava() throws Exception
    {
        final List<DocExamples.Source> programs = MarkdownJavaBlocks.find(DocExamplesTest.repositoryRoot()).stream()
            .filter(b -> b.file().equals(Path.of("README.md")) && b.kind() == DocBlock.Kind.PROGRAM)
            .map(DocExamples::sourceOf).collect(Collectors.toList());
        assertThat(programs).as("the README's embedded and client quick starts").hasSizeGreaterThanOrEqualTo(2);
        final Path classes = dir.resolve("classes");
        DocExamples.compile(programs, classes).forEach((source, errors) ->
            assertThat(errors).as("compile errors of %s", source.block().location()).isEmpty());

        for (final Path java : installedJavas())
        {
            for (final DocExamples.Source program : programs)
            {
                final ChildRun run = runChild(java, classes, program);
                assertThat(run.out.stripTrailing()).as("what %s printed on %s", program.block().location(), java)
                    .isEqualTo(program.block().expectedOutput().stripTrailing());
                assertNoUnexpectedWarnings(java, run);
            }
        }
    }

    private ChildRun runChild(final Path java, final Path classes, final DocExamples.Source program)
        throws Exception
    {
        final String name = program.className() + "-" + java.getParent().getParent().getFileName();
        final Path data = Files.createTempDirectory(dir, name);
        final Path out = dir.resolve(name + ".out");
        final Path err = dir.resolve(name + ".err");
        final Process child = new ProcessBuilder(java.toString(), "-cp",
            classes + File.pathSeparator + DocExamples.testClassPath(), program.className(), data.toString())
            .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!child.waitFor(CHILD_SECONDS, TimeUnit.SECONDS))
        {
            child.destroyForcibly().waitFor();
        }
        final ChildRun run = new ChildRun(Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8), child.exitValue());
        assertThat(run.exit).as("%s on %s: exit code; stderr:%n%s", program.block().location(), java, run.err)
            .isZero();
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
                    .map(ReadmeWithoutFlagsTest::realPath).sorted().forEach(javas::add);
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
