package io.spool.cluster;

import io.spool.api.stream.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The line a node logs when it cannot write: a full disk is called so, with what to do about it; another write error
 * is named as it is; a repair that could not fetch its records is not called a disk's failure. (A real full disk, and the node leaving its group, are {@link FullDiskTest}'s.)
 */
class FailedWritesTest
{
    private static final TopicPartition EVENTS = new TopicPartition("events", 0);

    @TempDir
    Path dir;

    @Test
    void aFullDiskIsCalledFullWithWhatToDo()
    {
        final String line = FailedWrites.describe(2, "a committed batch", EVENTS, dir,
            new UncheckedIOException("append failed", new IOException("No space left on device")));

        assertThat(line).startsWith("node 2 cannot write a committed batch of events-0 to " + dir +
                ": its disk is full (")
            .contains("bytes free; No space left on device)")
            .contains("free space on that disk (or move the data directory to a larger one) and restart the node");
    }

    @Test
    void anotherWriteErrorIsNamedAsItIs()
    {
        final String line = FailedWrites.describe(3, "the Raft log", EVENTS, dir,
            new IOException("Input/output error"));

        assertThat(line).isEqualTo("node 3 cannot write the Raft log of events-0 to " + dir + ": Input/output " +
            "error; it has left the partition's group, which goes on with the other nodes: repair that disk and " +
            "restart the node, which then catches up from the group");
    }

    @Test
    void aNodeThatCannotWriteForTheMetadataGroupSaysItStoppedAndWhatToDo()
    {
        final String line = FailedWrites.describeStop(1, "the files of topic orders", dir,
            new UncheckedIOException("cannot create segment", new IOException("No space left on device")));

        assertThat(line).startsWith("node 1 stopped: it cannot write the files of topic orders to " + dir +
                ": its disk is full (")
            .contains("the other nodes keep serving: free space on that disk (or move the data directory to a " +
                "larger one) and restart the node, which then applies the cluster's topics it missed");
    }

    @Test
    void aRepairThatCouldNotFetchTheRecordsSaysSoAndNotThatADiskFailed()
    {
        final String line = FailedWrites.describeUnrepaired(1, EVENTS,
            new IllegalStateException("fetch failed", new IOException("no member holds offset 12 any more")));

        assertThat(line).isEqualTo("node 1 could not fetch the records of events-0 that its snapshot holds and its " +
            "log lacks from the other members: no member holds offset 12 any more; it has left the partition's " +
            "group, which goes on with the other nodes: restart the node once a majority is reachable (their logs " +
            "must still hold those records: keep retention longer than a node's outage)");
    }
}
