package io.spool.wire.sqs;

import io.spool.log.DurableFiles;
import io.spool.log.FileSync;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The message move tasks' files, one a task, replaced atomically on each change: so a task outlives a restart of the
 * endpoint, and a task that was running goes on. Thread-safe (stateless); callers serialise changes to one task.
 */
final class MoveTaskFiles
{
    private static final String SUFFIX = ".task";

    private final Path directory;
    private final FileSync sync;

    /** What is kept of one task. */
    record SavedTask(long id, String handle, String source, String destination, long rate, long started,
        long toMove, long moved, String status, String failure)
    {
    }

    MoveTaskFiles(final Path directory, final FileSync sync)
    {
        this.directory = directory;
        this.sync = sync;
    }

    void save(final SavedTask task)
    {
        final Properties properties = new Properties();
        properties.setProperty("handle", task.handle);
        properties.setProperty("source", task.source);
        if (task.destination != null)
        {
            properties.setProperty("destination", task.destination);
        }
        properties.setProperty("rate", Long.toString(task.rate));
        properties.setProperty("started", Long.toString(task.started));
        properties.setProperty("toMove", Long.toString(task.toMove));
        properties.setProperty("moved", Long.toString(task.moved));
        properties.setProperty("status", task.status);
        if (task.failure != null)
        {
            properties.setProperty("failure", task.failure);
        }
        final StringWriter text = new StringWriter();
        try
        {
            properties.store(text, null);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot encode message move task " + task.handle, ex);
        }
        DurableFiles.replace(sync, directory.resolve(task.id + SUFFIX), text.toString()
            .getBytes(StandardCharsets.UTF_8));
    }

    void delete(final long id)
    {
        try
        {
            Files.deleteIfExists(directory.resolve(id + SUFFIX));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot delete message move task file " + id + SUFFIX, ex);
        }
    }

    /** Every task kept; a file that cannot be read is named in the error. */
    List<SavedTask> load()
    {
        final List<SavedTask> tasks = new ArrayList<>();
        if (!Files.isDirectory(directory))
        {
            return tasks;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*" + SUFFIX))
        {
            for (final Path file : files)
            {
                final byte[] content = DurableFiles.read(file);
                if (content == null)
                {
                    continue;
                }
                final Properties p = new Properties();
                p.load(new StringReader(new String(content, StandardCharsets.UTF_8)));
                final String name = file.getFileName().toString();
                try
                {
                    tasks.add(new SavedTask(Long.parseLong(name.substring(0, name.length() - SUFFIX.length())),
                        required(p, "handle", file), required(p, "source", file), p.getProperty("destination"),
                        Long.parseLong(required(p, "rate", file)), Long.parseLong(required(p, "started", file)),
                        Long.parseLong(required(p, "toMove", file)), Long.parseLong(required(p, "moved", file)),
                        required(p, "status", file), p.getProperty("failure")));
                }
                catch (final NumberFormatException ex)
                {
                    throw new IllegalStateException("message move task file " + file + " holds a number that is " +
                        "not one (" + ex.getMessage() + "); delete the file to forget the task", ex);
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read the message move tasks in " + directory, ex);
        }
        return tasks;
    }

    private static String required(final Properties properties, final String key, final Path file)
    {
        final String value = properties.getProperty(key);
        if (value == null)
        {
            throw new IllegalStateException("message move task file " + file + " has no " + key + "; delete the " +
                "file to forget the task");
        }
        return value;
    }
}
