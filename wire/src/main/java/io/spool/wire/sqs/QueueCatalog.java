package io.spool.wire.sqs;

import io.spool.log.DurableFiles;
import io.spool.log.FileSync;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The queue definitions the endpoint keeps, one file per queue in its directory ({@code NAME.queue}, Java properties
 * text, replaced atomically), read once when the endpoint opens. Thread-safe: reads take no lock, writes are
 * serialised by the caller.
 */
final class QueueCatalog
{
    private static final String SUFFIX = ".queue";
    private static final String ATTRIBUTE = "attribute.";
    private static final String TAG = "tag.";

    private final Path directory;
    private final FileSync sync;
    private final Map<String, QueueDefinition> definitions = new ConcurrentHashMap<>();

    QueueCatalog(final Path directory, final FileSync sync)
    {
        this.directory = directory;
        this.sync = sync;
        try
        {
            DurableFiles.createDirectories(sync, directory);
            try (Stream<Path> files = Files.list(directory))
            {
                files.filter(file -> file.getFileName().toString().endsWith(SUFFIX)).forEach(this::load);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read the SQS queue catalog in " + directory, ex);
        }
    }

    private void load(final Path file)
    {
        final byte[] content = DurableFiles.read(file);
        if (content == null)
        {
            return;
        }
        final Properties properties = new Properties();
        try
        {
            properties.load(new StringReader(new String(content, StandardCharsets.UTF_8)));
            final Map<String, String> attributes = new LinkedHashMap<>();
            final Map<String, String> tags = new LinkedHashMap<>();
            for (final String key : properties.stringPropertyNames())
            {
                if (key.startsWith(ATTRIBUTE))
                {
                    attributes.put(key.substring(ATTRIBUTE.length()), properties.getProperty(key));
                }
                else if (key.startsWith(TAG))
                {
                    tags.put(key.substring(TAG.length()), properties.getProperty(key));
                }
            }
            final QueueDefinition definition = new QueueDefinition(properties.getProperty("name"),
                Boolean.parseBoolean(properties.getProperty("fifo")), Long.parseLong(properties.getProperty("created")),
                Long.parseLong(properties.getProperty("modified")),
                Long.parseLong(properties.getProperty("incarnation")),
                Boolean.parseBoolean(properties.getProperty("ownsTopic")), attributes, tags);
            definitions.put(definition.name(), definition);
        }
        catch (final IOException | RuntimeException ex)
        {
            throw new IllegalStateException("the SQS queue definition " + file + " cannot be read (" + ex +
                "); move it away to open the endpoint without that queue's SQS attributes", ex);
        }
    }

    QueueDefinition get(final String name)
    {
        return definitions.get(name);
    }

    Iterable<QueueDefinition> all()
    {
        return definitions.values();
    }

    void put(final QueueDefinition definition)
    {
        final Properties properties = new Properties();
        properties.setProperty("name", definition.name());
        properties.setProperty("fifo", Boolean.toString(definition.fifo()));
        properties.setProperty("created", Long.toString(definition.createdSeconds()));
        properties.setProperty("modified", Long.toString(definition.modifiedSeconds()));
        properties.setProperty("incarnation", Long.toString(definition.incarnation()));
        properties.setProperty("ownsTopic", Boolean.toString(definition.ownsTopic()));
        definition.attributes().forEach((name, value) -> properties.setProperty(ATTRIBUTE + name, value));
        definition.tags().forEach((key, value) -> properties.setProperty(TAG + key, value));
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try
        {
            properties.store(out, "SQS queue " + definition.name());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        DurableFiles.replace(sync, directory.resolve(definition.name() + SUFFIX), out.toByteArray());
        definitions.put(definition.name(), definition);
    }

    void remove(final String name)
    {
        definitions.remove(name);
        try
        {
            Files.deleteIfExists(directory.resolve(name + SUFFIX));
            DurableFiles.syncDirectory(sync, directory);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot delete the SQS definition of queue " + name, ex);
        }
    }
}
