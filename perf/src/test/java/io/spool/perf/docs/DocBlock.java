package io.spool.perf.docs;

import java.nio.file.Path;

/**
 * One fenced {@code java} block of a Markdown file, with the output block that follows it when there is one.
 *
 * @param file           the Markdown file, relative to the repository root.
 * @param line           the line of the opening fence, 1-based.
 * @param kind           what the harness does with the block (its fence's marker).
 * @param code           the block's text, its fence's indentation removed.
 * @param expectedOutput the text of the {@code output} block right after it, or null when none follows.
 */
record DocBlock(Path file, int line, Kind kind, String code, String expectedOutput)
{
    /** The marker after {@code java} in a block's opening fence says which kind it is. */
    enum Kind
    {
        /** {@code ```java}: a whole program, compiled and run; its output block must match what it prints. */
        PROGRAM(""),
        /** {@code ```java fragment}: statements, compiled inside a method with the harness's imports, not run. */
        FRAGMENT("fragment"),
        /** {@code ```java excerpt}: not compilable on its own (a signature, a part of a class); reported as skipped. */
        EXCERPT("excerpt");

        final String marker;

        Kind(final String marker)
        {
            this.marker = marker;
        }
    }

    /** Where the block starts, as an editor would name it. */
    String location()
    {
        return file + ":" + line;
    }
}
