package io.spool.perf.docs;

import io.spool.testing.SlowTest;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * Compiles every fenced {@code java} block of {@code README.md} and {@code docs/**}{@code /*.md} against the test
 * class path, and runs the programs among them, so that no example in the docs can rot. The marker after
 * {@code java} in a block's opening fence says what the block is:
 * <ul>
 *     <li>{@code ```java} — a <b>program</b>: a whole compilation unit (its imports and one top-level
 *     {@code public class} with {@code public static void main(String[] args)}), in the unnamed package, its class
 *     name unique across the docs. The harness runs {@code main} with one argument, a fresh empty directory for the
 *     program's data directory, and compares what it prints on {@code System.out} with the {@code ```output} block
 *     that must follow it (only blank lines between; trailing blank lines aside, exactly). A program therefore
 *     prints only what does not change from run to run.</li>
 *     <li>{@code ```java fragment} — statements, compiled (not run) as the body of a method that declares
 *     {@code Spool spool, Subscription subscription, Receipt receipt, SpoolClient client, byte[] key, byte[] value}
 *     ({@link DocExamples#FRAGMENT_PARAMETERS}), in a class that imports the API packages
 *     ({@link DocExamples#FRAGMENT_IMPORTS}: {@code io.spool}, {@code io.spool.log}, {@code io.spool.stream},
 *     {@code io.spool.queue}, {@code io.spool.queue.routing}, {@code io.spool.wire.client},
 *     {@code io.spool.wire.server}, {@code java.nio.file}, {@code java.time}, {@code java.util} and
 *     {@code UTF_8}). Import lines at the start of a fragment are added to those. Anything else a fragment uses,
 *     it declares.</li>
 *     <li>{@code ```java excerpt} — Java that cannot compile on its own (a signature, a part of a class): not
 *     compiled, and reported as a skipped test with its place, so that it is never passed over unseen.</li>
 * </ul>
 * Any other marker, an {@code ```output} block after anything but a program, and a program without one fail the
 * test. Blocks that are not Java (shell sessions, layouts) use another language ({@code ```bash}, {@code ```text})
 * or none. Each block is one dynamic test named by its file and line.
 * <p>
 * The programs run in this JVM, with its flags; {@link DocExamples} compiles into a directory, so that a run in a
 * forked JVM can reuse it.
 */
@SlowTest
class DocExamplesTest
{
    private static final Duration PROGRAM_TIME_LIMIT = Duration.ofMinutes(2);

    @TestFactory
    Stream<DynamicTest> everyJavaBlockOfTheDocsCompilesAndEveryProgramPrintsItsOutput(@TempDir final Path temp)
    {
        final List<DocBlock> blocks = MarkdownJavaBlocks.find(repositoryRoot());
        final List<DocExamples.Source> sources = blocks.stream().filter(b -> b.kind() != DocBlock.Kind.EXCERPT)
            .map(DocExamples::sourceOf).collect(Collectors.toList());
        assertUniqueClassNames(sources);
        final Path classes = temp.resolve("classes");
        final Map<DocExamples.Source, List<String>> errors = DocExamples.compile(sources, classes);
        final Map<DocBlock, DocExamples.Source> sourceOf = new HashMap<>();
        sources.forEach(s -> sourceOf.put(s.block(), s));

        return blocks.stream().map(block -> DynamicTest.dynamicTest(block.location() + " " + block.kind(), () ->
        {
            if (block.kind() == DocBlock.Kind.EXCERPT)
            {
                abort(block.location() + " is marked ```java excerpt: not compiled");
            }
            final DocExamples.Source source = sourceOf.get(block);
            assertThat(errors.get(source)).as("compile errors of the block at " + block.location()).isEmpty();
            if (block.kind() == DocBlock.Kind.PROGRAM)
            {
                runProgram(source, classes, errors, temp);
            }
        }));
    }

    @Test
    void theReadmeQuickStartsPrintTheRecordTheyPublishAsAStreamRecordAndAsAQueueDelivery()
    {
        final List<DocBlock> programs = MarkdownJavaBlocks.find(repositoryRoot()).stream()
            .filter(b -> b.file().equals(Path.of("README.md")) && b.kind() == DocBlock.Kind.PROGRAM)
            .collect(Collectors.toList());

        assertThat(programs).as("the README's embedded and client quick starts").hasSizeGreaterThanOrEqualTo(2);
        for (final DocBlock program : programs)
        {
            assertThat(program.expectedOutput()).as(program.location())
                .containsPattern("(?m)^stream .*\"order #1\"$")
                .containsPattern("(?m)^queue .*\"order #1\".*$");
        }
    }

    @Test
    void aBlockThatDoesNotCompileIsReportedAtItsDocumentLine(@TempDir final Path temp)
    {
        final List<DocBlock> blocks = MarkdownJavaBlocks.parse(Path.of("broken.md"), List.of(
            "Some text.",
            "```java fragment",
            "int fine = 1;",
            "undefinedCall(fine);",
            "```"));

        final DocExamples.Source source = DocExamples.sourceOf(blocks.get(0));
        final List<String> errors = DocExamples.compile(List.of(source), temp).get(source);

        assertThat(errors).singleElement().asString().startsWith("broken.md:4: ").contains("undefinedCall");
    }

    @Test
    void aProgramIsRunWithAFreshDataDirectoryAndWhatItPrintsIsReturned(@TempDir final Path temp) throws Throwable
    {
        final List<DocBlock> blocks = MarkdownJavaBlocks.parse(Path.of("example.md"), List.of(
            "```java",
            "import java.nio.file.Files;",
            "import java.nio.file.Path;",
            "public class PrintsItsDirectory",
            "{",
            "    public static void main(String[] args) throws Exception",
            "    {",
            "        System.out.println(Files.list(Path.of(args[0])).count() + \" files\");",
            "    }",
            "}",
            "```",
            "",
            "```output",
            "0 files",
            "```"));
        final DocExamples.Source source = DocExamples.sourceOf(blocks.get(0));
        assertThat(DocExamples.compile(List.of(source), temp.resolve("classes")).get(source)).isEmpty();
        final Path dataDir = Files.createDirectory(temp.resolve("data"));

        assertThat(DocExamples.run(source, temp.resolve("classes"), dataDir)).isEqualTo("0 files\n")
            .isEqualTo(blocks.get(0).expectedOutput());
    }

    private static void runProgram(final DocExamples.Source source, final Path classes,
        final Map<DocExamples.Source, List<String>> errors, final Path temp) throws IOException
    {
        final DocBlock block = source.block();
        if (!Files.exists(classes.resolve(source.className() + ".class")))
        {
            fail(block.location() + " was not compiled, because of errors in other blocks: " +
                errors.values().stream().flatMap(List::stream).collect(Collectors.joining("; ")));
        }
        if (block.expectedOutput() == null)
        {
            fail(block.location() + ": a ```java program is followed by an ```output block showing what it prints");
        }
        final Path dataDir = Files.createTempDirectory(temp, source.className());
        final String printed = assertTimeoutPreemptively(PROGRAM_TIME_LIMIT,
            () -> DocExamples.run(source, classes, dataDir), block.location() + " did not finish");
        assertThat(printed.stripTrailing()).as("what " + block.location() + " printed")
            .isEqualTo(block.expectedOutput().stripTrailing());
    }

    private static void assertUniqueClassNames(final List<DocExamples.Source> sources)
    {
        final Map<String, List<String>> places = new HashMap<>();
        sources.forEach(s -> places.computeIfAbsent(s.className(), n -> new ArrayList<>()).add(s.block().location()));
        places.forEach((name, where) -> assertThat(where).as("blocks declaring class " + name).hasSize(1));
    }

    /** The directory holding the README and the {@code perf} module, found from where the tests run. */
    static Path repositoryRoot()
    {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !(Files.isRegularFile(dir.resolve("README.md")) && Files.isDirectory(dir.resolve("perf"))))
        {
            dir = dir.getParent();
        }
        if (dir == null)
        {
            throw new IllegalStateException("no README.md beside a perf directory above " + Path.of("").toAbsolutePath());
        }
        return dir;
    }
}
