package io.spool.perf.docs;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The fence rules of {@link DocExamplesTest}'s convention: no java block is passed over without a word. */
class MarkdownJavaBlocksTest
{
    private static final Path FILE = Path.of("guide.md");

    @Test
    void findsEachKindWithItsLineAndTheOutputThatFollowsAProgram()
    {
        final List<DocBlock> blocks = MarkdownJavaBlocks.parse(FILE, List.of(
            "# Title",
            "```java",
            "public class A {}",
            "```",
            "",
            "```output",
            "printed",
            "```",
            "```java fragment",
            "int x = 1;",
            "```",
            "```java excerpt",
            "void signature();",
            "```",
            "```bash",
            "ls",
            "```"));

        assertThat(blocks).extracting(DocBlock::kind).containsExactly(
            DocBlock.Kind.PROGRAM, DocBlock.Kind.FRAGMENT, DocBlock.Kind.EXCERPT);
        assertThat(blocks).extracting(DocBlock::line).containsExactly(2, 9, 12);
        assertThat(blocks.get(0).code()).isEqualTo("public class A {}\n");
        assertThat(blocks.get(0).expectedOutput()).isEqualTo("printed\n");
        assertThat(blocks.get(1).expectedOutput()).isNull();
    }

    @Test
    void aBlockIndentedInAListIsFoundWithItsIndentationRemoved()
    {
        final List<DocBlock> blocks = MarkdownJavaBlocks.parse(FILE, List.of(
            "- an item:",
            "  ```java fragment",
            "  int x = 1;",
            "  ```"));

        assertThat(blocks).singleElement().extracting(DocBlock::code).isEqualTo("int x = 1;\n");
    }

    @Test
    void aProgramWithTextBeforeItsOutputBlockHasNoOutputAndTheOutputBlockIsRefused()
    {
        assertThatThrownBy(() -> MarkdownJavaBlocks.parse(FILE, List.of(
            "```java",
            "public class A {}",
            "```",
            "Some words.",
            "```output",
            "printed",
            "```")))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageStartingWith("guide.md:5: an output block must follow a ```java program block");
    }

    @Test
    void anUnknownMarkerIsAnErrorNamingItsLine()
    {
        assertThatThrownBy(() -> MarkdownJavaBlocks.parse(FILE, List.of("text", "```java snippet", "x", "```")))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageStartingWith("guide.md:2: unknown java block marker \"snippet\"");
    }

    @Test
    void aBlockNeverClosedIsAnError()
    {
        assertThatThrownBy(() -> MarkdownJavaBlocks.parse(FILE, List.of("```java", "public class A {}")))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("guide.md:1: code block never closed");
    }

    @Test
    void aProgramBlockWithoutAPublicClassIsRefused()
    {
        final DocBlock block = MarkdownJavaBlocks.parse(FILE, List.of("```java", "int x = 1;", "```")).get(0);

        assertThatThrownBy(() -> DocExamples.sourceOf(block))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("guide.md:1: a ```java program block declares one top-level public class");
    }
}
