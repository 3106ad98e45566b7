package io.spool.perf.docs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every relative link of the README and {@code docs/} leads somewhere: to a file or directory of the repository
 * and, with a {@code #fragment}, to a heading of that file (GitHub's anchors: lower case, punctuation dropped,
 * spaces as hyphens). Links inside code blocks are not links, and web links are not followed.
 */
class DocLinksTest
{
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*)$");

    @Test
    void everyRelativeLinkNamesAnExistingFileAndHeading() throws IOException
    {
        final Path root = DocExamplesTest.repositoryRoot();
        final List<String> broken = new ArrayList<>();
        int links = 0;
        for (final Path document : MarkdownJavaBlocks.documents(root))
        {
            final List<String> lines = proseLines(root.resolve(document));
            for (int i = 0; i < lines.size(); i++)
            {
                final Matcher link = LINK.matcher(lines.get(i));
                while (link.find())
                {
                    final String target = link.group(1);
                    if (target.matches("^[a-z]+:.*"))
                    {
                        continue;
                    }
                    links++;
                    final String problem = problem(root, document, target);
                    if (problem != null)
                    {
                        broken.add(document + ":" + (i + 1) + ": " + target + ": " + problem);
                    }
                }
            }
        }

        assertThat(links).as("relative links found").isGreaterThan(20);
        assertThat(broken).as("broken links").isEmpty();
    }

    @Test
    void anAnchorIsTheHeadingInLowerCaseWithoutPunctuation()
    {
        assertThat(anchor("Quick start: client and server")).isEqualTo("quick-start-client-and-server");
        assertThat(anchor("The log store (`log-store`, `io.spool.log`)")).isEqualTo("the-log-store-log-store-iospoollog");
    }

    private static String problem(final Path root, final Path document, final String target) throws IOException
    {
        final int hash = target.indexOf('#');
        final String path = hash < 0 ? target : target.substring(0, hash);
        final Path file = path.isEmpty() ? root.resolve(document) :
            root.resolve(document).getParent().resolve(path).normalize();
        if (!file.startsWith(root) || !Files.exists(file))
        {
            return "no such file";
        }
        if (hash < 0)
        {
            return null;
        }
        final String fragment = target.substring(hash + 1);
        for (final String line : proseLines(file))
        {
            final Matcher heading = HEADING.matcher(line);
            if (heading.matches() && anchor(heading.group(1)).equals(fragment))
            {
                return null;
            }
        }
        return "no heading #" + fragment;
    }

    static String anchor(final String heading)
    {
        return heading.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").trim().replace(' ', '-');
    }

    /** The lines of a Markdown file outside fenced code blocks. */
    private static List<String> proseLines(final Path file) throws IOException
    {
        final List<String> prose = new ArrayList<>();
        boolean inCode = false;
        for (final String line : Files.readAllLines(file))
        {
            if (line.trim().startsWith("```"))
            {
                inCode = !inCode;
                prose.add("");
                continue;
            }
            prose.add(inCode ? "" : line);
        }
        return prose;
    }
}
