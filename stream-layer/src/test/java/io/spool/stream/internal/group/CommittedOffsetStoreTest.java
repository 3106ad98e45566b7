package io.spool.stream.internal.group;

import io.spool.api.EngineClosedException;
import io.spool.api.InvalidRequestException;
import io.spool.api.stream.TopicPartition;
import io.spool.log.PowerLossFileSync;
import io.spool.stream.CorruptFileException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CommittedOffsetStoreTest
{
    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);
    private static final TopicPartition ORDERS_1 = new TopicPartition("orders", 1);
    private static final TopicPartition PAYMENTS_0 = new TopicPartition("payments", 0);

    @TempDir
    Path dir;

    private Path file()
    {
        return dir.resolve("offsets").resolve("committed.log");
    }

    @Test
    void unsetOffsetReadsAsNoOffset()
    {
        try (CommittedOffsetStore store = CommittedOffsetStore.open(file(), false))
        {
            assertThat(store.committed("g", ORDERS_0)).isEqualTo(CommittedOffsetStore.NO_OFFSET);
            assertThat(store.committedOffsets("g")).isEmpty();
        }
    }

    @Test
    void commitsSurviveReopen()
    {
        try (CommittedOffsetStore store = CommittedOffsetStore.open(file(), true))
        {
            store.commit("g1", Map.of(ORDERS_0, 10L, ORDERS_1, 20L));
            store.commit("g2", PAYMENTS_0, 5L);
            store.commit("g1", ORDERS_0, 11L);
        }
        try (CommittedOffsetStore store = CommittedOffsetStore.open(file(), true))
        {
            assertThat(store.truncatedBytesOnOpen()).isZero();
            assertThat(store.committedOffsets("g1"))
                .containsExactly(Map.entry(ORDERS_0, 11L), Map.entry(ORDERS_1, 20L));
            assertThat(store.committed("g2", PAYMENTS_0)).isEqualTo(5L);
            assertThat(store.groups()).containsExactlyInAnyOrder("g1", "g2");
        }
    }

    @Test
    void aCommitSyncedBeforeItReturnedSurvivesAPowerLoss()
    {
        final PowerLossFileSync storage = new PowerLossFileSync(dir);
        final CommittedOffsetStore store = CommittedOffsetStore.open(file(), true, storage);
        store.commit("g", ORDERS_0, 42L);
        storage.losePower();
        store.close();
        storage.restoreWhatWasForced();

        try (CommittedOffsetStore reopened = CommittedOffsetStore.open(file(), true))
        {
            assertThat(reopened.committed("g", ORDERS_0)).isEqualTo(42L);
        }
    }

    @Test
    void fileStaysBoundedAcross100kCommitsAndSurvivesReopen()
    {
        try (CommittedOffsetStore store = CommittedOffsetStore.open(file(), false))
        {
            long largest = 0;
            for (int i = 0; i < 100_000; i++)
            {
                store.commit("group-" + (i % 3), new TopicPartition("orders", i % 8), i);
                largest = Math.max(largest, store.fileLength());
            }
            assertThat(store.compactions()).isPositive();
            assertThat(largest).isLessThanOrEqualTo(CommittedOffsetStore.MIN_COMPACTION_BYTES + 100);
        }
        try (CommittedOffsetStore store = CommittedOffsetStore.open(file(), false))
        {
            for (int i = 100_000 - 24; i < 100_000; i++)
            {
                assertThat(store.committed("group-" + (i % 3), new TopicPartition("orders", i % 8))).isEqualTo(i);
            }
        }
    }

    @Test
    void tornTailIsTruncatedAndEarlierCommitsKept() throws IOException
    {
        try (CommittedOffsetStore store = CommittedOffsetStore.open(file(), false))
        {
            store.commit("g", ORDERS_0, 1L);
            store.commit("g", ORDERS_0, 2L);
        }
        final long intact = Files.size(file());
        try (RandomAccessFile raf = new RandomAccessFile(file().toFile(), "rw"))
        {
            raf.setLength(intact - 3);
        }
        try (CommittedOffsetStore store = CommittedOffsetStore.open(file(), false))
        {
            assertThat(store.committed("g", ORDERS_0)).isEqualTo(1L);
            assertThat(store.truncatedBytesOnOpen()).isPositive();
            store.commit("g", ORDERS_0, 3L);
        }
        try (CommittedOffsetStore store = CommittedOffsetStore.open(file(), false))
        {
            assertThat(store.committed("g", ORDERS_0)).isEqualTo(3L);
            assertThat(store.truncatedBytesOnOpen()).isZero();
        }
    }

    @Test
    void corruptRecordStopsReplayThere() throws IOException
    {
        try (CommittedOffsetStore store = CommittedOffsetStore.open(file(), false))
        {
            store.commit("g", ORDERS_0, 1L);
            store.commit("g", ORDERS_1, 2L);
        }
        try (RandomAccessFile raf = new RandomAccessFile(file().toFile(), "rw"))
        {
            raf.seek(raf.length() - 2);
            raf.write(0x5A);
        }
        try (CommittedOffsetStore store = CommittedOffsetStore.open(file(), false))
        {
            assertThat(store.committed("g", ORDERS_0)).isEqualTo(1L);
            assertThat(store.committed("g", ORDERS_1)).isEqualTo(CommittedOffsetStore.NO_OFFSET);
        }
    }

    @Test
    void deletingATopicOrGroupForgetsItsOffsetsDurably()
    {
        try (CommittedOffsetStore store = CommittedOffsetStore.open(file(), false))
        {
            store.commit("g1", Map.of(ORDERS_0, 1L, PAYMENTS_0, 2L));
            store.commit("g2", ORDERS_1, 3L);
            store.deleteTopic("orders");
            store.deleteGroup("nobody");
        }
        try (CommittedOffsetStore store = CommittedOffsetStore.open(file(), false))
        {
            assertThat(store.committedOffsets("g1")).containsExactly(Map.entry(PAYMENTS_0, 2L));
            assertThat(store.groups()).containsExactly("g1");
            store.deleteGroup("g1");
            assertThat(store.groups()).isEmpty();
        }
    }

    @Test
    void negativeOffsetIsRejected()
    {
        try (CommittedOffsetStore store = CommittedOffsetStore.open(file(), false))
        {
            assertThatThrownBy(() -> store.commit("g", ORDERS_0, -5L))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("orders-0 must be >= 0, was -5");
        }
    }

    @Test
    void foreignFileIsReportedAsCorrupt() throws IOException
    {
        Files.createDirectories(file().getParent());
        Files.write(file(), new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9});
        assertThatThrownBy(() -> CommittedOffsetStore.open(file(), false))
            .isInstanceOf(CorruptFileException.class).hasMessageContaining("magic");
    }

    @Test
    void closedStoreRefusesCommits()
    {
        final CommittedOffsetStore store = CommittedOffsetStore.open(file(), false);
        store.close();
        assertThatThrownBy(() -> store.commit("g", ORDERS_0, 1L))
            .isInstanceOf(EngineClosedException.class).hasMessageContaining("is closed");
    }

    @Test
    void fileOfAnotherVersionIsReportedAsCorrupt() throws IOException
    {
        try (CommittedOffsetStore store = CommittedOffsetStore.open(file(), false))
        {
            store.commit("g", ORDERS_0, 1L);
        }
        try (RandomAccessFile raf = new RandomAccessFile(file().toFile(), "rw"))
        {
            raf.seek(4);
            raf.write(9);
        }
        assertThatThrownBy(() -> CommittedOffsetStore.open(file(), false))
            .isInstanceOf(CorruptFileException.class).hasMessageContaining("has version 9");
    }
}
