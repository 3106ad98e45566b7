package io.spool.perf.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Finds the fenced {@code java} blocks of the repository's Markdown (the README and everything under
 * {@code docs/}), and the {@code output} block that follows each. A fence this class cannot read as one of the
 * {@link DocBlock.Kind}s is an error naming its line, never a block passed over.
 */
final class MarkdownJavaBlocks
{
    private static final Pattern FENCE = Pattern.compile("^(\\s*)(`{3,}|~{3,})\\s*(.*)$");
    private static final String OUTPUT = "output";

    private MarkdownJavaBlocks()
    {
    }

    /** {@code README.md} and every {@code .md} file under {@code docs/}, relative to {@code root}, sorted. */
    static List<Path> documents(final Path root)
    {
        final List<Path> files = new ArrayList<>();
        files.add(Path.of("README.md"));
        final Path docs = root.resolve("docs");
        if (Files.isDirectory(docs))
        {
            try (Stream<Path> walk = Files.walk(docs))
            {
                walk.filter(p -> p.toString().endsWith(".md")).map(root::relativize).sorted().forEach(files::add);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }
        return files;
    }

    /** The java blocks of every document under {@code root}, in document order. */
    static List<DocBlock> find(final Path root)
    {
        final List<DocBlock> blocks = new ArrayList<>();
        for (final Path file : documents(root))
        {
            try
            {
                blocks.addAll(parse(file, Files.readAllLines(root.resolve(file))));
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }
        return blocks;
    }

    /** The java blocks of one document, given as its lines. */
    static List<DocBlock> parse(final Path file, final List<String> lines)
    {
        final List<Fenced> fenced = fencedBlocks(file, lines);
        final List<DocBlock> blocks = new ArrayList<>();
        for (int f = 0; f < fenced.size(); f++)
        {
            final Fenced block = fenced.get(f);
            if (block.language().equals(OUTPUT))
            {
                throw new IllegalArgumentException(file + ":" + block.openLine() +
                    ": an output block must follow a ```java program block, with only blank lines between");
            }
            if (!block.language().equalsIgnoreCase("java"))
            {
                continue;
            }
            final DocBlock.Kind kind = kindOf(file, block.openLine(), block.marker());
            String output = null;
            if (kind == DocBlock.Kind.PROGRAM && f + 1 < fenced.size() && fenced.get(f + 1).language().equals(OUTPUT) &&
                blankBetween(lines, block.closeLine(), fenced.get(f + 1).openLine()))
            {
                output = fenced.get(++f).body();
            }
            blocks.add(new DocBlock(file, block.openLine(), kind, block.body(), output));
        }
        return blocks;
    }

    /** A fenced block: its first info word, the rest of the info, its text, and its fences' lines (1-based). */
    private record Fenced(String language, String marker, String body, int openLine, int closeLine)
    {
    }

    private static List<Fenced> fencedBlocks(final Path file, final List<String> lines)
    {
        final List<Fenced> fenced = new ArrayList<>();
        int i = 0;
        while (i < lines.size())
        {
            final Matcher open = FENCE.matcher(lines.get(i));
            if (!open.matches())
            {
                i++;
                continue;
            }
            final String indent = open.group(1);
            final String[] info = open.group(3).trim().split("\\s+");
            final int close = closingFence(file, lines, i, open.group(2));
            final String body = lines.subList(i + 1, close).stream()
                .map(l -> l.startsWith(indent) ? l.substring(indent.length()) : l.stripLeading())
                .collect(Collectors.joining("\n", "", "\n"));
            fenced.add(new Fenced(info[0], String.join(" ", Arrays.copyOfRange(info, 1, info.length)), body, i + 1,
                close + 1));
            i = close + 1;
        }
        return fenced;
    }

    private static boolean blankBetween(final List<String> lines, final int afterLine, final int beforeLine)
    {
        for (int l = afterLine; l < beforeLine - 1; l++)
        {
            if (!lines.get(l).isBlank())
            {
                return false;
            }
        }
        return true;
    }

    private static DocBlock.Kind kindOf(final Path file, final int line, final String marker)
    {
        for (final DocBlock.Kind kind : DocBlock.Kind.values())
        {
            if (kind.marker.equals(marker))
            {
                return kind;
            }
        }
        throw new IllegalArgumentException(file + ":" + line + ": unknown java block marker \"" + marker +
            "\"; use ```java (a program), ```java fragment or ```java excerpt");
    }

    private static int closingFence(final Path file, final List<String> lines, final int open, final String fence)
    {
        for (int j = open + 1; j < lines.size(); j++)
        {
            final String trimmed = lines.get(j).trim();
            if (trimmed.length() >= fence.length() && trimmed.chars().allMatch(c -> c == fence.charAt(0)))
            {
                return j;
            }
        }
        throw new IllegalArgumentException(file + ":" + (open + 1) + ": code block never closed");
    }
}
