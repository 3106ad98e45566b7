package io.spool.cluster;

import io.spool.api.stream.TopicPartition;
import org.apache.ratis.protocol.RaftGroupId;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/** The Raft group directories under a node's {@code raft/}, found by the partition they belong to. */
final class RaftDirectories
{
    private RaftDirectories()
    {
    }

    /** The directories of the partition's groups (of any generation) on the node. */
    static List<Path> ofPartition(final Path nodeDir, final ClusterMembers members, final TopicPartition partition)
    {
        final ClusterGroups groups = new ClusterGroups(members);
        try (Stream<Path> directories = Files.list(nodeDir.resolve("raft")))
        {
            return directories.filter(Files::isDirectory)
                .filter(directory -> groups.isGroupOf(groupId(directory), partition))
                .toList();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** The one directory of the partition's group on the node. */
    static Path onlyOfPartition(final Path nodeDir, final ClusterMembers members, final TopicPartition partition)
    {
        final List<Path> found = ofPartition(nodeDir, members, partition);
        if (found.size() != 1)
        {
            throw new IllegalStateException(nodeDir + " holds " + found.size() + " groups of " + partition);
        }
        return found.get(0);
    }

    private static RaftGroupId groupId(final Path directory)
    {
        return RaftGroupId.valueOf(UUID.fromString(directory.getFileName().toString()));
    }
}
