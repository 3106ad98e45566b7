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
