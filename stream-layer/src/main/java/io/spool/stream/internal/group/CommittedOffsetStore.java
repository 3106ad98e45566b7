package io.spool.stream.internal.group;

import io.spool.api.EngineClosedException;
import io.spool.api.stream.GroupReport;
import io.spool.api.InvalidRequestException;
import io.spool.api.stream.TopicPartition;
import io.spool.log.DurableFiles;
import io.spool.log.FileSync;
import io.spool.stream.CorruptFileException;
import org.agrona.collections.Object2LongHashMap;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * Durable committed offsets of every consumer group: an append-only file (see {@link OffsetLogDescriptor})
 * replayed into memory on open, its torn tail truncated, and rewritten with only the live entries once it grows
 * past {@link #COMPACTION_RATIO} times their size, so a group committing forever keeps a bounded file.
 * Thread-safe: every method is synchronized, which is fine because commits happen per poll, not per record.
 */
public final class CommittedOffsetStore implements AutoCloseable
{
    /** A commit that would make the file this many times larger than its live entries triggers compaction. */
    static final int COMPACTION_RATIO = 4;
    /** Below this size the file is never compacted: rewriting it would cost more than it saves. */
    static final long MIN_COMPACTION_BYTES = 64 * 1024;

    public static final long NO_OFFSET = GroupReport.PartitionPosition.NO_OFFSET;

    private final Path file;
    private final FileSync sync;
    private final boolean syncEachCommit;
    private final Object2LongHashMap<OffsetKey> offsets = new Object2LongHashMap<>(NO_OFFSET);
    private final CRC32C crc = new CRC32C();
    private final long truncatedBytesOnOpen;
    private ByteBuffer writeBuffer = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);
    private FileChannel channel;
    private long fileLength;
    private long liveBytes;
    private int compactions;
    private boolean closed;

    private CommittedOffsetStore(final Path file, final boolean syncEachCommit, final FileSync sync)
        throws IOException
    {
        this.file = file;
        this.sync = sync;
        this.syncEachCommit = syncEachCommit;
        DurableFiles.createDirectories(sync, file.toAbsolutePath().getParent());
        channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
            StandardOpenOption.WRITE);
        if (channel.size() == 0)
        {
            writeFileHeader(channel);
            sync.force(file, channel, true);
            // Without its directory entry forced, the file and every commit synced into it can vanish with the power.
            sync.forceDirectory(file.toAbsolutePath().getParent());
        }
        truncatedBytesOnOpen = replay();
    }

    /**
     * Opens (creating if absent) the offset file.
     *
     * @param syncEachCommit fsync before a commit returns, so a machine crash keeps it; without it a commit
     *                       survives a process crash but may be lost with the page cache
     */
    public static CommittedOffsetStore open(final Path file, final boolean syncEachCommit)
    {
        return open(file, syncEachCommit, FileSync.FORCE);
    }

    /** {@link #open(Path, boolean)} forcing through {@code sync}. */
    public static CommittedOffsetStore open(final Path file, final boolean syncEachCommit, final FileSync sync)
    {
        try
        {
            return new CommittedOffsetStore(file, syncEachCommit, sync);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot open committed offsets at " + file, ex);
        }
    }

    /** The committed offset (the next one the group will read), or {@link #NO_OFFSET}. */
    public synchronized long committed(final String group, final TopicPartition partition)
    {
        return offsets.getValue(new OffsetKey(group, partition.topic(), partition.partition()));
    }

    /** Every committed offset of a group, sorted by partition. */
    public synchronized Map<TopicPartition, Long> committedOffsets(final String group)
    {
        final Map<TopicPartition, Long> result = new TreeMap<>();
        offsets.forEachLong((key, offset) ->
        {
            if (key.group.equals(group))
            {
                result.put(new TopicPartition(key.topic, key.partition), offset);
            }
        });
        return result;
    }

    /** The groups with at least one committed offset. */
    public synchronized Set<String> groups()
    {
        final Set<String> groups = new HashSet<>();
        offsets.keySet().forEach(key -> groups.add(key.group));
        return groups;
    }

    public void commit(final String group, final TopicPartition partition, final long offset)
    {
        commit(group, Map.of(partition, offset));
    }

    /** Commits several offsets with one write (and one fsync when configured); offsets must be ≥ 0. */
    public synchronized void commit(final String group, final Map<TopicPartition, Long> newOffsets)
    {
        ensureOpen();
        for (final Map.Entry<TopicPartition, Long> entry : newOffsets.entrySet())
        {
            if (entry.getValue() < 0)
            {
                throw new InvalidRequestException(
                    "offset to commit for " + entry.getKey() + " must be >= 0, was " + entry.getValue());
            }
        }
        writeRecords(group, newOffsets);
    }

    /** Forgets every offset committed for a topic, for example when it is deleted. */
    public synchronized void deleteTopic(final String topic)
    {
        ensureOpen();
        final Set<OffsetKey> doomed = new HashSet<>();
        offsets.keySet().forEach(key ->
        {
            if (key.topic.equals(topic))
            {
                doomed.add(key);
            }
        });
        deleteKeys(doomed);
    }

    /** Forgets one group's offset for one partition, so that its consumers' reset policy decides where it starts. */
    public synchronized void forget(final String group, final TopicPartition partition)
    {
        ensureOpen();
        deleteKeys(Set.of(new OffsetKey(group, partition.topic(), partition.partition())));
    }

    /** Forgets every offset of a group. */
    public synchronized void deleteGroup(final String group)
    {
        ensureOpen();
        final Set<OffsetKey> doomed = new HashSet<>();
        offsets.keySet().forEach(key ->
        {
            if (key.group.equals(group))
            {
                doomed.add(key);
            }
        });
        deleteKeys(doomed);
    }

    /** Bytes of the file now. */
    public synchronized long fileLength()
    {
        return fileLength;
    }

    /** Bytes of a torn or corrupt tail dropped when the file was opened. */
    public long truncatedBytesOnOpen()
    {
        return truncatedBytesOnOpen;
    }

    /** How many times the file was rewritten since it was opened. */
    public synchronized int compactions()
    {
        return compactions;
    }

    @Override
    public synchronized void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        try
        {
            sync.force(file, channel, true);
            channel.close();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot close committed offsets at " + file, ex);
        }
    }

    private void deleteKeys(final Set<OffsetKey> doomed)
    {
        if (doomed.isEmpty())
        {
            return;
        }
        final Map<OffsetKey, Long> tombstones = new HashMap<>();
        doomed.forEach(key -> tombstones.put(key, OffsetLogDescriptor.TOMBSTONE));
        appendAndApply(tombstones);
    }

    private void writeRecords(final String group, final Map<TopicPartition, Long> newOffsets)
    {
        final Map<OffsetKey, Long> entries = new HashMap<>();
        newOffsets.forEach((tp, offset) -> entries.put(new OffsetKey(group, tp.topic(), tp.partition()), offset));
        appendAndApply(entries);
    }

    private void appendAndApply(final Map<OffsetKey, Long> entries)
    {
        writeBuffer.clear();
        for (final Map.Entry<OffsetKey, Long> entry : entries.entrySet())
        {
            encode(entry.getKey(), entry.getValue());
        }
        writeBuffer.flip();
        try
        {
            final int written = writeBuffer.remaining();
            while (writeBuffer.hasRemaining())
            {
                channel.write(writeBuffer, fileLength + (written - writeBuffer.remaining()));
            }
            if (syncEachCommit)
            {
                sync.force(file, channel, false);
            }
            fileLength += written;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write committed offsets to " + file, ex);
        }
        entries.forEach(this::apply);
        if (fileLength > Math.max(MIN_COMPACTION_BYTES, COMPACTION_RATIO * liveBytes))
        {
            compact();
        }
    }

    private void apply(final OffsetKey key, final long offset)
    {
        final long previous = offset == OffsetLogDescriptor.TOMBSTONE ? offsets.removeKey(key) :
            offsets.put(key, offset);
        if (previous != NO_OFFSET)
        {
            liveBytes -= key.recordLength;
        }
        if (offset != OffsetLogDescriptor.TOMBSTONE)
        {
            liveBytes += key.recordLength;
        }
    }

    private void encode(final OffsetKey key, final long offset)
    {
        if (writeBuffer.remaining() < key.recordLength)
        {
            final ByteBuffer larger = ByteBuffer.allocate(Math.max(writeBuffer.capacity() * 2,
                writeBuffer.position() + key.recordLength)).order(ByteOrder.LITTLE_ENDIAN);
            writeBuffer.flip();
            larger.put(writeBuffer);
            writeBuffer = larger;
        }
        final int start = writeBuffer.position();
        final int bodyStart = start + OffsetLogDescriptor.RECORD_HEADER_LENGTH;
        writeBuffer.position(bodyStart);
        writeBuffer.putShort((short)key.groupBytes.length).put(key.groupBytes);
        writeBuffer.putShort((short)key.topicBytes.length).put(key.topicBytes);
        writeBuffer.putInt(key.partition).putLong(offset);
        final int end = writeBuffer.position();
        crc.reset();
        crc.update(writeBuffer.array(), bodyStart, end - bodyStart);
        writeBuffer.putInt(start + OffsetLogDescriptor.LENGTH_OFFSET, end - bodyStart);
        writeBuffer.putInt(start + OffsetLogDescriptor.CRC_OFFSET, (int)crc.getValue());
    }

    private long replay() throws IOException
    {
        final long size = channel.size();
        final ByteBuffer header = ByteBuffer.allocate(OffsetLogDescriptor.FILE_HEADER_LENGTH)
            .order(ByteOrder.LITTLE_ENDIAN);
        channel.read(header, 0);
        if (header.position() < OffsetLogDescriptor.FILE_HEADER_LENGTH ||
            header.getInt(0) != OffsetLogDescriptor.MAGIC)
        {
            throw new CorruptFileException("committed offsets file " + file.getFileName() +
                " does not start with the offsets magic number");
        }
        if (header.getInt(4) != OffsetLogDescriptor.VERSION)
        {
            throw new CorruptFileException("committed offsets file " + file.getFileName() + " has version " +
                header.getInt(4) + ", this build reads version " + OffsetLogDescriptor.VERSION);
        }
        final ByteBuffer content = ByteBuffer.allocate((int)(size - OffsetLogDescriptor.FILE_HEADER_LENGTH))
            .order(ByteOrder.LITTLE_ENDIAN);
        while (content.hasRemaining())
        {
            if (channel.read(content, OffsetLogDescriptor.FILE_HEADER_LENGTH + content.position()) < 0)
            {
                break;
            }
        }
        final int validEnd = replayRecords(content.flip());
        fileLength = OffsetLogDescriptor.FILE_HEADER_LENGTH + validEnd;
        if (fileLength < size)
        {
            channel.truncate(fileLength);
            sync.force(file, channel, true);
        }
        return size - fileLength;
    }

    /** Applies every intact record and returns where the first torn or corrupt one starts. */
    private int replayRecords(final ByteBuffer content)
    {
        int position = 0;
        while (content.limit() - position >= OffsetLogDescriptor.RECORD_HEADER_LENGTH)
        {
            final int bodyLength = content.getInt(position + OffsetLogDescriptor.LENGTH_OFFSET);
            final int bodyStart = position + OffsetLogDescriptor.RECORD_HEADER_LENGTH;
            if (bodyLength < OffsetLogDescriptor.bodyLength(0, 0) || bodyLength > content.limit() - bodyStart)
            {
                break;
            }
            crc.reset();
            crc.update(content.array(), bodyStart, bodyLength);
            if ((int)crc.getValue() != content.getInt(position + OffsetLogDescriptor.CRC_OFFSET))
            {
                break;
            }
            final OffsetKey key = decodeKey(content, bodyStart, bodyLength);
            if (key == null)
            {
                break;
            }
            apply(key, content.getLong(bodyStart + bodyLength - Long.BYTES));
            position = bodyStart + bodyLength;
        }
        return position;
    }

    private static OffsetKey decodeKey(final ByteBuffer content, final int bodyStart, final int bodyLength)
    {
        final int groupLength = content.getShort(bodyStart);
        final int topicAt = bodyStart + Short.BYTES + groupLength;
        if (groupLength < 0 || OffsetLogDescriptor.bodyLength(groupLength, 0) > bodyLength)
        {
            return null;
        }
        final int topicLength = content.getShort(topicAt);
        if (topicLength < 0 || OffsetLogDescriptor.bodyLength(groupLength, topicLength) != bodyLength)
        {
            return null;
        }
        final String group = new String(content.array(), bodyStart + Short.BYTES, groupLength,
            StandardCharsets.UTF_8);
        final String topic = new String(content.array(), topicAt + Short.BYTES, topicLength, StandardCharsets.UTF_8);
        final int partition = content.getInt(topicAt + Short.BYTES + topicLength);
        return new OffsetKey(group, topic, partition);
    }

    /** Writes the live entries to a new file, syncs it, then renames it over the old one in one step. */
    private void compact()
    {
        writeBuffer.clear();
        writeBuffer.putInt(OffsetLogDescriptor.MAGIC).putInt(OffsetLogDescriptor.VERSION);
        offsets.forEachLong(this::encode);
        final byte[] content = Arrays.copyOf(writeBuffer.array(), writeBuffer.position());
        try
        {
            channel.close();
            DurableFiles.replace(sync, file, content);
            channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot reopen committed offsets file " + file + " after compaction", ex);
        }
        fileLength = content.length;
        compactions++;
    }

    private static void writeFileHeader(final FileChannel channel) throws IOException
    {
        final ByteBuffer header = ByteBuffer.allocate(OffsetLogDescriptor.FILE_HEADER_LENGTH)
            .order(ByteOrder.LITTLE_ENDIAN)
            .putInt(OffsetLogDescriptor.MAGIC)
            .putInt(OffsetLogDescriptor.VERSION)
            .flip();
        while (header.hasRemaining())
        {
            channel.write(header, header.position());
        }
    }

    private void ensureOpen()
    {
        if (closed)
        {
            throw new EngineClosedException("committed offsets store " + file.getFileName());
        }
    }

    /** Key of one committed offset; caches its UTF-8 names so encoding and size accounting do not redo it. */
    private static final class OffsetKey
    {
        final String group;
        final String topic;
        final int partition;
        final byte[] groupBytes;
        final byte[] topicBytes;
        final int recordLength;

        OffsetKey(final String group, final String topic, final int partition)
        {
            this.group = group;
            this.topic = topic;
            this.partition = partition;
            this.groupBytes = group.getBytes(StandardCharsets.UTF_8);
            this.topicBytes = topic.getBytes(StandardCharsets.UTF_8);
            this.recordLength = OffsetLogDescriptor.recordLength(groupBytes.length, topicBytes.length);
        }

        @Override
        public boolean equals(final Object other)
        {
            return other instanceof OffsetKey key && key.partition == partition && key.group.equals(group) &&
                key.topic.equals(topic);
        }

        @Override
        public int hashCode()
        {
            return (group.hashCode() * 31 + topic.hashCode()) * 31 + partition;
        }
    }
}
