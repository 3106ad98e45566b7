package io.spool.stream;

import io.spool.log.LogStore;
import io.spool.log.PartitionLog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The topics of one engine: creates, describes, lists and deletes them (creating and deleting go through
 * {@link StreamEngine}, which also rebalances groups and forgets offsets), keeps their metadata file in step, and
 * on open brings every topic back and removes partition directories no topic claims (left by a crash between a
 * directory change and the metadata write). Thread-safe: lookups read a concurrent map without locking;
 * create and delete are serialised.
 */
public final class TopicRegistry
{
    static final String TOPICS_DIRECTORY = "topics";

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
        for (final StoredTopic stored : metadata.load())
        {
            final TopicConfig config = TopicConfig.fromSettings(stored.partitions(), stored.settings());
            topics.put(stored.name(), openPartitions(stored.name(), config));
        }
        removeUnclaimedDirectories();
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
        final Topic topic = openPartitions(name, config);
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
        deleteIfEmpty(logRoot.resolve(TOPICS_DIRECTORY).resolve(name));
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

    private Topic openPartitions(final String name, final TopicConfig config)
    {
        final PartitionLog[] logs = new PartitionLog[config.partitions()];
        for (int p = 0; p < logs.length; p++)
        {
            logs[p] = logStore.openLog(Topic.logName(name, p), config.log());
        }
        return new Topic(name, config, logs);
    }

    private void saveMetadata()
    {
        final List<StoredTopic> stored = new ArrayList<>();
        for (final String name : list())
        {
            final Topic topic = topics.get(name);
            stored.add(new StoredTopic(name, topic.partitionCount(), topic.config().toSettings()));
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
                if (!isPartitionNumberBelow(partition, claimed))
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
