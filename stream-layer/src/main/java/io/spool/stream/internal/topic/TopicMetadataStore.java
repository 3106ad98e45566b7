package io.spool.stream.internal.topic;

import io.spool.log.CopiedFile;
import io.spool.log.FileSync;
import io.spool.stream.CorruptFileException;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * Reads and atomically replaces the topic metadata file ({@link TopicMetadataDescriptor}) and its second copy in a
 * data directory. A crash leaves either the old file or the new one, never a mix; a damaged file is read from its
 * copy. Not thread-safe: its owner serialises changes.
 */
public final class TopicMetadataStore
{
    private final Path file;
    private final FileSync sync;

    public TopicMetadataStore(final Path directory)
    {
        this(directory, FileSync.FORCE);
    }

    public TopicMetadataStore(final Path directory, final FileSync sync)
    {
        this.file = directory.resolve(TopicMetadataDescriptor.FILE_NAME);
        this.sync = sync;
    }

    /**
     * The stored topics in file order, from the copy when the file is damaged; none when neither exists yet.
     *
     * @throws CorruptFileException when the file and its copy both fail their checks.
     */
    public CopiedFile.Loaded<List<StoredTopic>> load()
    {
        final CopiedFile.Loaded<List<StoredTopic>> loaded = CopiedFile.load(sync, file, this::decode);
        return loaded.value() == null ? new CopiedFile.Loaded<>(List.of(), null) : loaded;
    }

    public void save(final List<StoredTopic> topics)
    {
        CopiedFile.save(sync, file, encode(topics));
    }

    /** Checks the file and its copy without changing them. */
    public CopiedFile.Inspection inspect()
    {
        return CopiedFile.inspect(file, this::decode);
    }

    /** Moves the damaged file and its copy aside, for an operator to look at. */
    public Path setAside()
    {
        return CopiedFile.setAside(file);
    }

    public Path file()
    {
        return file;
    }

    private static byte[] encode(final List<StoredTopic> topics)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes))
        {
            out.writeInt(TopicMetadataDescriptor.MAGIC);
            out.writeInt(TopicMetadataDescriptor.VERSION);
            out.writeInt(topics.size());
            for (final StoredTopic topic : topics)
            {
                out.writeUTF(topic.name());
                out.writeUTF(topic.id());
                out.writeInt(topic.partitions());
                out.writeInt(topic.settings().size());
                for (final Map.Entry<String, String> setting : new TreeMap<>(topic.settings()).entrySet())
                {
                    out.writeUTF(setting.getKey());
                    out.writeUTF(setting.getValue());
                }
            }
            final CRC32C crc = new CRC32C();
            crc.update(bytes.toByteArray());
            out.writeInt((int)crc.getValue());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot encode topic metadata", ex);
        }
        return bytes.toByteArray();
    }

    private List<StoredTopic> decode(final byte[] content)
    {
        if (content.length < 4 * Integer.BYTES)
        {
            throw corrupt("is " + content.length + " bytes, shorter than its header");
        }
        final CRC32C crc = new CRC32C();
        crc.update(content, 0, content.length - Integer.BYTES);
        if ((int)crc.getValue() != ByteBuffer.wrap(content, content.length - Integer.BYTES, Integer.BYTES).getInt())
        {
            throw corrupt("fails its checksum");
        }
        try (DataInputStream in = new DataInputStream(
            new ByteArrayInputStream(content, 0, content.length - Integer.BYTES)))
        {
            return decodeChecked(in);
        }
        catch (final EOFException ex)
        {
            throw corrupt("ends inside a topic entry");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot decode topic metadata " + file, ex);
        }
    }

    private List<StoredTopic> decodeChecked(final DataInputStream in) throws IOException
    {
        if (in.readInt() != TopicMetadataDescriptor.MAGIC)
        {
            throw corrupt("does not start with the topic metadata magic number");
        }
        final int version = in.readInt();
        if (version != TopicMetadataDescriptor.VERSION && version != TopicMetadataDescriptor.VERSION_WITHOUT_IDS)
        {
            throw corrupt("has version " + version + ", this build reads versions " +
                TopicMetadataDescriptor.VERSION_WITHOUT_IDS + " and " + TopicMetadataDescriptor.VERSION);
        }
        final int count = in.readInt();
        final List<StoredTopic> topics = new ArrayList<>(Math.max(0, Math.min(count, 1024)));
        for (int i = 0; i < count; i++)
        {
            final String name = in.readUTF();
            final String id = version == TopicMetadataDescriptor.VERSION_WITHOUT_IDS ? null : in.readUTF();
            final int partitions = in.readInt();
            final int settingCount = in.readInt();
            final Map<String, String> settings = new HashMap<>();
            for (int s = 0; s < settingCount; s++)
            {
                settings.put(in.readUTF(), in.readUTF());
            }
            topics.add(new StoredTopic(name, id, partitions, settings));
        }
        return topics;
    }

    private CorruptFileException corrupt(final String problem)
    {
        return new CorruptFileException("topic metadata file " + file.getFileName() + " " + problem);
    }
}
