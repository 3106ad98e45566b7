package io.spool.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * A small file kept twice, so that one damaged copy costs nothing: {@link #save} replaces the second copy
 * ({@code NAME.bak}) and then the file itself, each atomically (see {@link DurableFiles}), and {@link #load} decodes
 * the file, or its copy when the file fails its checks. A crash between the two replacements leaves the copy newer
 * than the file; both are whole, and the file (the older one) is read, which is what the caller was last told.
 * Thread-safe (stateless); callers serialise changes to one file.
 */
public final class CopiedFile
{
    static final String COPY_SUFFIX = ".bak";

    private CopiedFile()
    {
    }

    /**
     * What {@link #load} read.
     *
     * @param value   the decoded content, null when neither the file nor its copy exists.
     * @param damage  why the file itself was not used (and its copy was), or null when it was.
     */
    public record Loaded<T>(T value, String damage)
    {
        public boolean fromCopy()
        {
            return damage != null;
        }
    }

    /**
     * What {@link #inspect} found: the problem of the file and of its copy, each null when it is whole (or neither
     * exists).
     */
    public record Inspection(Path file, String fileProblem, String copyProblem)
    {
        public boolean isWhole()
        {
            return fileProblem == null && copyProblem == null;
        }

        /** Whether an open can read it: the file or its copy is whole. */
        public boolean isReadable()
        {
            return fileProblem == null || copyProblem == null;
        }

        /**
         * One line for an operator: what is damaged and what an open does about it, or null when both are whole.
         *
         * @param root        what the file's name is given relative to.
         * @param whenUnreadable what an open does when neither copy can be read.
         */
        public String describe(final Path root, final String whenUnreadable)
        {
            if (isWhole())
            {
                return null;
            }
            final Path name = root.relativize(file);
            if (fileProblem == null)
            {
                return name + COPY_SUFFIX + " " + copyProblem + "; the file itself is whole, and the next change " +
                    "rewrites the copy";
            }
            if (copyProblem == null)
            {
                return name + " " + fileProblem + "; its copy is whole: an open restores it from the copy";
            }
            return name + " " + fileProblem + ", and its copy " + copyProblem + ": an open " + whenUnreadable;
        }
    }

    /**
     * Checks the file and its copy with {@code decoder} without changing either, for a verifier.
     */
    public static Inspection inspect(final Path file, final Function<byte[], ?> decoder)
    {
        final boolean fileExists = Files.exists(file);
        final boolean copyExists = Files.exists(copyOf(file));
        if (!fileExists && !copyExists)
        {
            return new Inspection(file, null, null);
        }
        return new Inspection(file, problemOf(file, decoder), problemOf(copyOf(file), decoder));
    }

    private static String problemOf(final Path file, final Function<byte[], ?> decoder)
    {
        try
        {
            if (!Files.exists(file))
            {
                return "is missing";
            }
            decoder.apply(Files.readAllBytes(file));
            return null;
        }
        catch (final IOException ex)
        {
            return "cannot be read: " + ex.getMessage();
        }
        catch (final RuntimeException ex)
        {
            return ex.getMessage();
        }
    }

    /** Writes {@code content} to the copy, then to the file. */
    public static void save(final FileSync sync, final Path file, final byte[] content)
    {
        DurableFiles.replace(sync, copyOf(file), content);
        DurableFiles.replace(sync, file, content);
    }

    /**
     * Decodes the file with {@code decoder}, which throws for content that fails its checks; when it does, decodes
     * the copy instead and rewrites the file from it.
     *
     * @throws RuntimeException the decoder's exception for the file, the copy's added as suppressed, when both
     *                          fail (or the file fails and there is no copy).
     */
    public static <T> Loaded<T> load(final FileSync sync, final Path file, final Function<byte[], T> decoder)
    {
        final byte[] content = DurableFiles.read(file);
        final byte[] copy = DurableFiles.read(copyOf(file));
        if (content == null && copy == null)
        {
            return new Loaded<>(null, null);
        }
        RuntimeException damage = null;
        if (content != null)
        {
            try
            {
                return new Loaded<>(decoder.apply(content), null);
            }
            catch (final RuntimeException ex)
            {
                damage = ex;
            }
        }
        if (copy == null)
        {
            throw damage;
        }
        final T value;
        try
        {
            value = decoder.apply(copy);
        }
        catch (final RuntimeException ex)
        {
            if (damage == null)
            {
                throw ex;
            }
            damage.addSuppressed(ex);
            throw damage;
        }
        DurableFiles.replace(sync, file, copy);
        return new Loaded<>(value, damage == null ? file.getFileName() + " is missing" : damage.getMessage());
    }

    /** Moves a file and its copy that both failed their checks aside as {@code NAME.damaged}, for an operator. */
    public static Path setAside(final Path file)
    {
        final Path aside = file.resolveSibling(file.getFileName() + ".damaged");
        try
        {
            if (Files.exists(file))
            {
                Files.move(file, aside, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            final Path copy = copyOf(file);
            if (Files.exists(copy))
            {
                Files.move(copy, aside.resolveSibling(aside.getFileName() + COPY_SUFFIX),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            return aside;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot set the damaged file " + file + " aside", ex);
        }
    }

    /** The second copy of {@code file}. */
    public static Path copyOf(final Path file)
    {
        return file.resolveSibling(file.getFileName() + COPY_SUFFIX);
    }
}
