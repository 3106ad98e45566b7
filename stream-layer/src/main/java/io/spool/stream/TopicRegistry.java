package io.spool.stream;

import io.spool.api.stream.InvalidTopicException;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicDescription;
import io.spool.api.stream.TopicExistsException;
import io.spool.api.stream.TopicPartition;
import io.spool.api.stream.UnknownTopicException;
import io.spool.log.CopiedFile;
import io.spool.log.DurableFiles;
import io.spool.log.LogStore;
import io.spool.log.OpenReport;
import io.spool.log.PartitionLog;
import io.spool.stream.internal.topic.StoredTopic;
import io.spool.stream.internal.topic.TopicMetadataDescriptor;
import io.spool.stream.internal.topic.TopicMetadataStore;
import io.spool.stream.internal.topic.TopicNames;
import io.spool.stream.internal.topic.TopicSettings;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The topics of one engine: creates, describes, lists and deletes them (creating and deleting go through
 * {@link StreamEngine}, which also rebalances groups and forgets offsets), keeps their metadata file in step, and
 * on open brings every topic back and removes partition directories no topic claims (left by a crash between a
 * directory change and the metadata write). A damaged metadata file is read from its copy; when the copy is
 * damaged too, the topics are rebuilt from their partition directories with default settings (the data is kept,
 * never removed as unclaimed) and the damaged files are set aside. Either is in the log store's
 * {@link OpenReport}. Thread-safe: lookups read a concurrent map without locking; create and delete are serialised.
 */
public final class TopicRegistry
{
    static final String TOPICS_DIRECTORY = "topics";
    /** The topic's id, kept in its directory too, so that a rebuild of the metadata gives the topic its id back. */
    static final String ID_FILE = "topic.id";

    private final LogStore logStore;
    private final Path logRoot;
    private final TopicMetadataStore metadata;
    private final Map<String, Topic> topics = new ConcurrentHashMap<>();

    /**
     * @param metadataDirectory where the topic metadata file lives
     */
    TopicRegistry(final LogStore logStore, final Path metadataDirectory)
    {
        this.logStore = logStore;
        this.logRoot = logStore.dataDir();
        this.metadata = new TopicMetadataStore(metadataDirectory, logStore.fileSync());
        boolean save = false;
        for (final StoredTopic stored : loadOrRebuild())
        {
            final TopicConfig config = TopicSettings.fromSettings(stored.partitions(), stored.settings());
            save |= stored.id() == null;
            final String id = stored.id() == null ? newId() : stored.id();
            topics.put(stored.name(), openPartitions(stored.name(), id, config));
            if (!Files.exists(idFile(stored.name())))
            {
                saveId(stored.name(), id);
            }
        }
        if (save)
        {
            saveMetadata();
        }
        removeUnclaimedDirectories();
    }

    private List<StoredTopic> loadOrRebuild()
    {
        final OpenReport report = logStore.openReport();
        final CopiedFile.Loaded<List<StoredTopic>> loaded;
        try
        {
            loaded = metadata.load();
        }
        catch (final RuntimeException damaged)
        {
            final Path aside = metadata.setAside();
            final List<StoredTopic> rebuilt = rebuildFromDirectories();
            metadata.save(rebuilt);
            report.add(OpenReport.Action.REBUILT, "topic metadata " + TopicMetadataDescriptor.FILE_NAME,
                damaged.getMessage() + ", and so does its copy; rebuilt " + rebuilt.size() + " topics " +
                    rebuilt.stream().map(StoredTopic::name).toList() + " from their partition directories with " +
                    "default settings and new ids (set the settings again); the damaged files are kept as " +
                    aside.getFileName());
            return rebuilt;
        }
        if (loaded.fromCopy())
        {
            report.add(OpenReport.Action.RESTORED_FROM_COPY, "topic metadata " + TopicMetadataDescriptor.FILE_NAME,
                loaded.damage() + "; read its copy, nothing lost");
        }
        return loaded.value();
    }

    /** Every directory {@code topics/NAME/N} with a valid name is a topic with partitions 0 to the highest N. */
    private List<StoredTopic> rebuildFromDirectories()
    {
        final Map<String, Integer> partitions = new TreeMap<>();
        final Path root = logRoot.resolve(TOPICS_DIRECTORY);
        if (!Files.isDirectory(root))
        {
            return List.of();
        }
        try (Stream<Path> topicDirectories = Files.list(root))
        {
            for (final Path topicDirectory : topicDirectories.filter(Files::isDirectory).toList())
            {
                final String name = topicDirectory.getFileName().toString();
                final int count = highestPartition(topicDirectory) + 1;
                if (TopicNames.isValidTopic(name) && count > 0)
                {
                    partitions.put(name, count);
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list topic directories under " + root, ex);
        }
        final List<StoredTopic> rebuilt = new ArrayList<>();
        partitions.forEach((name, count) -> rebuilt.add(new StoredTopic(name, keptId(name), count, Map.of())));
        return rebuilt;
    }

    /** The id kept in the topic's directory, or a new one when it is missing or damaged. */
    private String keptId(final String name)
    {
        try
        {
            final byte[] kept = DurableFiles.read(idFile(name));
            return kept == null ? newId() : UUID.fromString(new String(kept, StandardCharsets.UTF_8))
                .toString();
        }
        catch (final IllegalArgumentException damaged)
        {
            return newId();
        }
    }

    private void saveId(final String name, final String id)
    {
        DurableFiles.replace(logStore.fileSync(), idFile(name),
            id.getBytes(StandardCharsets.UTF_8));
    }

    private Path idFile(final String name)
    {
        return logRoot.resolve(TOPICS_DIRECTORY).resolve(name).resolve(ID_FILE);
    }

    private static int highestPartition(final Path topicDirectory) throws IOException
    {
        int highest = -1;
        try (Stream<Path> partitionDirectories = Files.list(topicDirectory))
        {
            for (final Path partition : partitionDirectories.filter(Files::isDirectory).toList())
            {
                final String number = partition.getFileName().toString();
                if (isPartitionNumberBelow(number, TopicConfig.MAX_PARTITIONS))
                {
                    highest = Math.max(highest, Integer.parseInt(number));
                }
            }
        }
        return highest;
    }

    private static String newId()
    {
        return UUID.randomUUID().toString();
    }

    /**
     * @throws InvalidTopicException when the name breaks the naming rules
     * @throws TopicExistsException  when a topic of that name exists
     */
    synchronized Topic create(final String name, final TopicConfig config)
    {
        TopicNames.validateTopic(name);
        if (config == null)
        {
            throw new InvalidTopicException("topic \"" + name + "\" needs settings, got null");
        }
        if (topics.containsKey(name))
        {
            throw new TopicExistsException("topic \"" + name + "\" already exists with " +
                topics.get(name).partitionCount() + " partitions");
        }
        final Topic topic = openPartitions(name, newId(), config);
        saveId(name, topic.id());
        topics.put(name, topic);
        saveMetadata();
        return topic;
    }

    /**
     * Removes a topic and its data. The metadata goes first, so a crash part-way leaves only unclaimed
     * directories, which the next open removes.
     *
     * @throws UnknownTopicException when there is no such topic
     */
    synchronized void delete(final String name)
    {
        final Topic topic = topic(name);
        topics.remove(name);
        saveMetadata();
        for (int p = 0; p < topic.partitionCount(); p++)
        {
            logStore.deleteLog(Topic.logName(name, p));
        }
        DurableFiles.delete(logStore.fileSync(), idFile(name));
        deleteIfEmpty(logRoot.resolve(TOPICS_DIRECTORY).resolve(name));
    }

    /**
     * Gives a live topic new retention limits, kept in the metadata file before its logs apply them.
     *
     * @throws UnknownTopicException when there is no such topic
     * @throws InvalidTopicException when {@code changed} differs in a setting other than retention
     */
    synchronized Topic alter(final String name, final TopicConfig changed)
    {
        final Topic topic = topic(name);
        if (changed == null)
        {
            throw new InvalidTopicException("topic \"" + name + "\" needs settings to change to, got null");
        }
        TopicSettings.requireOnlyChangeable(name, topic.config(), changed);
        saveMetadata(name, changed);
        topic.changeRetention(changed);
        return topic;
    }

    /**
     * @throws UnknownTopicException when there is no such topic
     */
    public Topic topic(final String name)
    {
        final Topic topic = topics.get(name);
        if (topic == null)
        {
            throw new UnknownTopicException("topic \"" + name + "\" does not exist");
        }
        return topic;
    }

    /** The topic, or null when there is none; for paths that test existence without paying for an exception. */
    public Topic topicOrNull(final String name)
    {
        return topics.get(name);
    }

    /** A topic's partition count, or 0 when it does not exist. */
    public int partitionCount(final String name)
    {
        final Topic topic = topics.get(name);
        return topic == null ? 0 : topic.partitionCount();
    }

    /** A partition's log end offset, or -1 when the topic or the partition does not exist. */
    public long endOffset(final TopicPartition partition)
    {
        final Topic topic = topics.get(partition.topic());
        return topic == null || partition.partition() < 0 || partition.partition() >= topic.partitionCount() ? -1 :
            topic.partition(partition.partition()).endOffset();
    }

    /** True once the engine's log store closed; its logs can no longer be read or written. */
    boolean isStoreClosed()
    {
        return logStore.isClosed();
    }

    /** Names of every topic, sorted. */
    public List<String> list()
    {
        final List<String> names = new ArrayList<>(topics.keySet());
        names.sort(null);
        return names;
    }

    /**
     * @throws UnknownTopicException when there is no such topic
     */
    public TopicDescription describe(final String name)
    {
        final Topic topic = topic(name);
        final List<TopicDescription.PartitionDescription> partitions = new ArrayList<>();
        for (int p = 0; p < topic.partitionCount(); p++)
        {
            final PartitionLog log = topic.partition(p);
            partitions.add(new TopicDescription.PartitionDescription(
                p, log.startOffset(), log.endOffset(), log.sizeInBytes(), log.segmentCount()));
        }
        return new TopicDescription(name, topic.config(), partitions);
    }

    private Topic openPartitions(final String name, final String id, final TopicConfig config)
    {
        final PartitionLog[] logs = new PartitionLog[config.partitions()];
        for (int p = 0; p < logs.length; p++)
        {
            logs[p] = logStore.openLog(Topic.logName(name, p), config.log());
        }
        return new Topic(name, id, config, logs);
    }

    private void saveMetadata()
    {
        saveMetadata(null, null);
    }

    /** Saves every topic's settings, {@code alteredName}'s as {@code altered}: they apply once they are kept. */
    private void saveMetadata(final String alteredName, final TopicConfig altered)
    {
        final List<StoredTopic> stored = new ArrayList<>();
        for (final String name : list())
        {
            final Topic topic = topics.get(name);
            final TopicConfig config = name.equals(alteredName) ? altered : topic.config();
            stored.add(new StoredTopic(name, topic.id(), topic.partitionCount(), TopicSettings.toSettings(config)));
        }
        metadata.save(stored);
    }

    private void removeUnclaimedDirectories()
    {
        final Path root = logRoot.resolve(TOPICS_DIRECTORY);
        if (!Files.isDirectory(root))
        {
            return;
        }
        try (Stream<Path> topicDirectories = Files.list(root))
        {
            for (final Path topicDirectory : topicDirectories.toList())
            {
                removeUnclaimedPartitions(topicDirectory);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list topic directories under " + root, ex);
        }
    }

    private void removeUnclaimedPartitions(final Path topicDirectory) throws IOException
    {
        final String name = topicDirectory.getFileName().toString();
        final int claimed = partitionCount(name);
        try (Stream<Path> partitionDirectories = Files.list(topicDirectory))
        {
            for (final Path partitionDirectory : partitionDirectories.toList())
            {
                final String partition = partitionDirectory.getFileName().toString();
                if (partition.equals(ID_FILE) || partition.equals(ID_FILE + ".tmp"))
                {
                    if (claimed == 0)
                    {
                        Files.delete(partitionDirectory);
                    }
                }
                else if (!isPartitionNumberBelow(partition, claimed))
                {
                    logStore.deleteLog(TOPICS_DIRECTORY + "/" + name + "/" + partition);
                }
            }
        }
        deleteIfEmpty(topicDirectory);
    }

    private static boolean isPartitionNumberBelow(final String directoryName, final int partitions)
    {
        try
        {
            return Integer.parseInt(directoryName) < partitions;
        }
        catch (final NumberFormatException ex)
        {
            return false;
        }
    }

    private static void deleteIfEmpty(final Path directory)
    {
        if (!Files.isDirectory(directory))
        {
            return;
        }
        try (Stream<Path> entries = Files.list(directory))
        {
            if (entries.findAny().isEmpty())
            {
                Files.delete(directory);
            }
        }
        catch (final DirectoryNotEmptyException ex)
        {
            // a file appeared between the listing and the delete; the directory is in use, so it stays
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot remove empty topic directory " + directory, ex);
        }
    }
}
