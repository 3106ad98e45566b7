package io.spool.queue.internal.store;

import io.spool.api.queue.AlreadySettledException;
import io.spool.api.queue.InvalidSettingsException;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.CorruptStateException;
import io.spool.queue.DeadLetterHandler;
import io.spool.queue.StateDurability;
import io.spool.queue.StateStoreConfig;
import io.spool.queue.internal.state.MessageInspector;
import io.spool.queue.internal.state.MessageState;
import io.spool.queue.internal.state.MessageTraits;
import io.spool.queue.internal.state.SubscriptionPartitionState;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SubscriptionStateStoreTest
{
    private static final int CONSUMER = 1;
    private static final SubscriptionSettings LIMIT_3 = SubscriptionSettings.builder().deliveryLimit(3).build();

    @TempDir
    Path directory;

    private final CachedEpochClock clock = new CachedEpochClock();
    private final List<String> deaths = new ArrayList<>();

    private SubscriptionStateStore open(final StateStoreConfig config)
    {
        return SubscriptionStateStore.open(directory, 2, LIMIT_3, 0, clock, config,
            (offset, reason, deliveries) -> deaths.add(offset + ":" + reason.label() + ":" + deliveries));
    }

    private SubscriptionStateStore open()
    {
        return open(StateStoreConfig.DEFAULT);
    }

    /** Offsets 0..9: 0,1 acked; 2 rejected; 3 delivered twice and held; 4 delayed; 5 held; 6.. never delivered. */
    private void buildMixedState(final SubscriptionStateStore store)
    {
        final SubscriptionPartitionState state = store.state();
        state.logEnd(10);
        state.acquire(6, CONSUMER, (offset, deliveryNumber) -> {});
        state.ack(0, 1);
        state.ack(1, 1);
        state.reject(2, 1);
        state.nack(3, 1);
        state.acquire(1, CONSUMER, (offset, deliveryNumber) -> {});
        state.nackWithDelay(4, 1, 60_000);
        store.commit();
    }

    private void assertMixedStateRestored(final SubscriptionPartitionState state)
    {
        assertThat(state.ackFloor()).isEqualTo(3);
        assertThat(state.readCursor()).isEqualTo(6);
        assertThat(state.state(3)).isEqualTo(MessageState.AVAILABLE);
        assertThat(state.deliveryCount(3)).isEqualTo(2);
        assertThat(state.state(4)).isEqualTo(MessageState.DELAYED);
        assertThat(state.deadline(4)).isEqualTo(clock.time() + 60_000);
        assertThat(state.state(5)).isEqualTo(MessageState.AVAILABLE);
        assertThat(state.deliveryCount(5)).isEqualTo(1);
        assertThatThrownBy(() -> state.ack(0, 1)).isInstanceOf(AlreadySettledException.class);
        state.logEnd(10);
        final List<String> redelivered = new ArrayList<>();
        state.acquire(10, CONSUMER, (offset, deliveryNumber) -> redelivered.add(offset + "#" + deliveryNumber));
        assertThat(redelivered).containsExactly("3#3", "5#2", "6#1", "7#1", "8#1", "9#1");
    }

    @Test
    void journalReplayRestoresAcksCountsDelaysAndDeadLetters()
    {
        clock.update(5_000);
        try (SubscriptionStateStore store = open())
        {
            buildMixedState(store);
        }
        try (SubscriptionStateStore store = open())
        {
            assertMixedStateRestored(store.state());
            assertThat(store.truncatedBytesOnOpen()).isZero();
        }
    }

    @Test
    void snapshotRestoresTheSameStateAndEmptiesTheJournal()
    {
        clock.update(5_000);
        try (SubscriptionStateStore store = open())
        {
            buildMixedState(store);
            store.snapshot();
            assertThat(store.journalBytes()).isEqualTo(JournalDescriptor.FILE_HEADER_LENGTH);
        }
        assertThat(directory.resolve("journal-0.log")).doesNotExist();
        assertThat(directory.resolve("journal-1.log")).exists();
        try (SubscriptionStateStore store = open())
        {
            assertMixedStateRestored(store.state());
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aMessageThatExpiredAheadOfTheCursorStaysDeadAcrossARestartFromJournalOrSnapshot(final boolean snapshot)
    {
        clock.update(10_000);
        final MessageInspector offsetFourLivesOneSecond = (offset, traits) ->
            traits.clear().expireAt = offset == 4 ? 11_000 : MessageTraits.NEVER;
        try (SubscriptionStateStore store = open())
        {
            final SubscriptionPartitionState state = store.state();
            state.inspector(offsetFourLivesOneSecond);
            state.logEnd(8);
            state.acquire(2, CONSUMER, (offset, deliveryNumber) -> {});
            assertThat(state.readAheadForExpiry(100)).isEqualTo(6);
            clock.advance(1_000);
            state.expireDue();
            assertThat(state.state(4)).isEqualTo(MessageState.DEAD);
            assertThat(state.readCursor()).isEqualTo(2);
            store.commit();
            if (snapshot)
            {
                store.snapshot();
            }
        }
        deaths.clear();
        try (SubscriptionStateStore store = open())
        {
            final SubscriptionPartitionState state = store.state();
            state.inspector(offsetFourLivesOneSecond);
            state.logEnd(8);
            assertThat(state.state(4)).isEqualTo(MessageState.DEAD);
            final List<Long> delivered = new ArrayList<>();
            state.acquire(10, CONSUMER, (offset, deliveryNumber) -> delivered.add(offset));
            assertThat(delivered).containsExactly(0L, 1L, 2L, 3L, 5L, 6L, 7L);
            assertThat(deaths).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void firstDeliveryTimesSurviveARestartFromJournalOrSnapshot(final boolean snapshot)
    {
        clock.update(10_000);
        try (SubscriptionStateStore store = open())
        {
            final SubscriptionPartitionState state = store.state();
            state.logEnd(6);
            state.acquire(3, CONSUMER, (offset, deliveryNumber) -> {});
            clock.advance(500);
            state.acquire(3, CONSUMER, (offset, deliveryNumber) -> {});
            state.nack(1, 1);
            state.ack(0, 1);
            clock.advance(500);
            state.acquire(1, CONSUMER, (offset, deliveryNumber) -> {});
            assertThat(state.firstDeliveryTime(1)).isEqualTo(10_000);
            store.commit();
            if (snapshot)
            {
                store.snapshot();
            }
        }
        clock.advance(60_000);
        try (SubscriptionStateStore store = open())
        {
            final SubscriptionPartitionState state = store.state();
            assertThat(state.firstDeliveryTime(0)).isEqualTo(-1);
            assertThat(state.firstDeliveryTime(1)).isEqualTo(10_000);
            assertThat(state.firstDeliveryTime(2)).isEqualTo(10_000);
            assertThat(state.firstDeliveryTime(3)).isEqualTo(10_500);
            assertThat(state.firstDeliveryTime(5)).isEqualTo(10_500);
            state.acquire(5, CONSUMER, (offset, deliveryNumber) -> {});
            assertThat(state.firstDeliveryTime(1)).isEqualTo(10_000);
            assertThat(state.firstDeliveryTime(4)).isEqualTo(10_500);
        }
    }

    @Test
    void delayThatFellDueWhileStoppedIsAvailableAfterRestart()
    {
        clock.update(5_000);
        try (SubscriptionStateStore store = open())
        {
            buildMixedState(store);
        }
        clock.advance(120_000);
        try (SubscriptionStateStore store = open())
        {
            store.state().expireDue();
            assertThat(store.state().state(4)).isEqualTo(MessageState.AVAILABLE);
            assertThat(store.state().deliveryCount(4)).isEqualTo(1);
        }
    }

    @Test
    void messageHeldOnItsLastAllowedDeliveryGoesDeadOnRestart()
    {
        try (SubscriptionStateStore store = open())
        {
            final SubscriptionPartitionState state = store.state();
            state.logEnd(1);
            for (int delivery = 1; delivery <= 4; delivery++)
            {
                state.acquire(1, CONSUMER, (offset, deliveryNumber) -> {});
                if (delivery < 4)
                {
                    state.nack(0, delivery);
                }
            }
            store.commit();
        }
        try (SubscriptionStateStore store = open())
        {
            assertThat(deaths).containsExactly("0:delivery_limit:4");
            assertThat(store.state().ackFloor()).isEqualTo(1);
        }
        deaths.clear();
        try (SubscriptionStateStore store = open())
        {
            assertThat(deaths).isEmpty();
            assertThat(store.state().ackFloor()).isEqualTo(1);
        }
    }

    @Test
    void tornTailIsTruncatedAndEverythingBeforeItKept() throws IOException
    {
        try (SubscriptionStateStore store = open())
        {
            buildMixedState(store);
        }
        final Path journal = directory.resolve("journal-0.log");
        final long validLength = Files.size(journal);
        try (RandomAccessFile file = new RandomAccessFile(journal.toFile(), "rw"))
        {
            file.seek(validLength);
            file.writeInt(Integer.reverseBytes(40));
            file.writeInt(12345);
            file.writeInt(Integer.reverseBytes(JournalDescriptor.ACK));
        }
        try (SubscriptionStateStore store = open())
        {
            assertThat(store.truncatedBytesOnOpen()).isEqualTo(12);
            assertThat(Files.size(journal)).isEqualTo(validLength);
            assertMixedStateRestored(store.state());
        }
    }

    @Test
    void entryWithABadChecksumEndsTheValidJournal() throws IOException
    {
        try (SubscriptionStateStore store = open())
        {
            store.state().logEnd(3);
            store.state().acquire(3, CONSUMER, (offset, deliveryNumber) -> {});
            store.commit();
            store.state().ack(1, 1);
            store.commit();
        }
        final Path journal = directory.resolve("journal-0.log");
        final long ackEntryAt = Files.size(journal) - JournalDescriptor.ENTRY_HEADER_LENGTH - Long.BYTES;
        try (RandomAccessFile file = new RandomAccessFile(journal.toFile(), "rw"))
        {
            file.seek(ackEntryAt + JournalDescriptor.ENTRY_HEADER_LENGTH);
            file.writeLong(Long.reverseBytes(2));
        }
        try (SubscriptionStateStore store = open())
        {
            assertThat(store.truncatedBytesOnOpen()).isEqualTo(JournalDescriptor.ENTRY_HEADER_LENGTH + Long.BYTES);
            assertThat(store.state().state(1)).isEqualTo(MessageState.AVAILABLE);
            assertThat(store.state().state(2)).isEqualTo(MessageState.AVAILABLE);
        }
    }

    @Test
    void aDamagedSnapshotIsReadFromItsCopyExactlyAndRewritten() throws IOException
    {
        try (SubscriptionStateStore store = open())
        {
            buildMixedState(store);
            store.snapshot();
        }
        flipAByte(directory.resolve(SnapshotDescriptor.FILE_NAME));

        try (SubscriptionStateStore store = open())
        {
            assertThat(store.snapshotDamage()).contains("fails its checksum");
            assertMixedStateRestored(store.state());
        }
        try (SubscriptionStateStore store = open())
        {
            assertThat(store.snapshotDamage()).as("the snapshot was rewritten from its copy").isNull();
        }
    }

    @Test
    void aSnapshotDamagedWithItsCopyIsRefusedNotGuessed() throws IOException
    {
        try (SubscriptionStateStore store = open())
        {
            buildMixedState(store);
            store.snapshot();
        }
        flipAByte(directory.resolve(SnapshotDescriptor.FILE_NAME));
        flipAByte(directory.resolve(SnapshotDescriptor.COPY_FILE_NAME));

        assertThatThrownBy(this::open)
            .isInstanceOf(CorruptStateException.class).hasMessageContaining("fails its checksum");
    }

    private static void flipAByte(final Path snapshot) throws IOException
    {
        final byte[] bytes = Files.readAllBytes(snapshot);
        bytes[SnapshotDescriptor.HEADER_LENGTH + 5] ^= 1;
        Files.write(snapshot, bytes);
    }

    @Test
    void journalWithoutItsSnapshotIsRefusedRatherThanDropped() throws IOException
    {
        try (SubscriptionStateStore store = open())
        {
            buildMixedState(store);
        }
        Files.delete(directory.resolve(SnapshotDescriptor.FILE_NAME));
        Files.delete(directory.resolve(SnapshotDescriptor.COPY_FILE_NAME));

        assertThatThrownBy(this::open)
            .isInstanceOf(CorruptStateException.class).hasMessageContaining("has no snapshot");
        assertThat(directory.resolve("journal-0.log")).exists();
    }

    @Test
    void snapshotOfAnotherPartitionIsRefused()
    {
        open().close();

        assertThatThrownBy(() -> SubscriptionStateStore.open(directory, 9, LIMIT_3, 0, clock,
            StateStoreConfig.DEFAULT, DeadLetterHandler.NONE))
            .isInstanceOf(CorruptStateException.class).hasMessageContaining("not partition 9");
    }

    @Test
    void journalOfAnotherGenerationIsRefused() throws IOException
    {
        open().close();
        final Path journal = directory.resolve("journal-0.log");
        final byte[] bytes = Files.readAllBytes(journal);
        bytes[JournalDescriptor.GENERATION_OFFSET] = 7;
        Files.write(journal, bytes);

        assertThatThrownBy(this::open)
            .isInstanceOf(CorruptStateException.class).hasMessageContaining("generation 7");
    }

    @Test
    void commitCompactsTheJournalPastTheThreshold()
    {
        final StateStoreConfig config = StateStoreConfig.DEFAULT.compactionThresholdBytes(4096)
            .durability(StateDurability.EVERY_BATCH);
        try (SubscriptionStateStore store = open(config))
        {
            final SubscriptionPartitionState state = store.state();
            state.logEnd(10_000);
            for (int round = 0; round < 100; round++)
            {
                final long first = state.readCursor();
                state.acquire(100, CONSUMER, (offset, deliveryNumber) -> {});
                for (long offset = first; offset < state.readCursor(); offset += 2)
                {
                    state.ack(offset, 1);
                }
                store.commit();
                assertThat(store.journalBytes()).isLessThan(4096);
            }
        }
        try (SubscriptionStateStore store = open(config))
        {
            final SubscriptionPartitionState state = store.state();
            assertThat(state.readCursor()).isEqualTo(10_000);
            assertThat(state.ackFloor()).isEqualTo(1);
            for (long offset = 0; offset < 10_000; offset++)
            {
                assertThat(state.state(offset))
                    .isEqualTo(offset % 2 == 0 ? MessageState.ACKED : MessageState.AVAILABLE);
            }
            assertThat(store.snapshotBytes()).isLessThan(160);
        }
    }

    @Test
    void aSmallJournalWindowGrowsTheFileByItAndACrashImageRestoresEveryAck(@TempDir final Path image)
        throws IOException
    {
        final int window = StateStoreConfig.MIN_JOURNAL_WINDOW_BYTES;
        final StateStoreConfig config = StateStoreConfig.DEFAULT.journalWindowBytes(window);
        try (SubscriptionStateStore store = open(config))
        {
            final SubscriptionPartitionState state = store.state();
            state.logEnd(40_000);
            state.acquire(40_000, CONSUMER, (offset, deliveryNumber) -> {});
            for (long offset = 0; offset < 40_000; offset += 2)
            {
                state.ack(offset, 1);
            }
            store.commit();
            assertThat(store.journalBytes()).as("journal past a few windows").isGreaterThan(2L * window);

            final long fileBytes;
            try (var files = Files.list(directory))
            {
                fileBytes = files.mapToLong(file -> file.toFile().length()).max().orElseThrow();
            }
            assertThat(fileBytes % window).as("the file grows by whole windows").isZero();
            assertThat(fileBytes).as("no more than a window ahead").isLessThanOrEqualTo(store.journalBytes() + window);
            io.spool.log.LogFixture.copyCrashImage(directory, image);
        }
        try (SubscriptionStateStore store = SubscriptionStateStore.open(image, 2, LIMIT_3, 0, clock, config,
            (offset, reason, deliveries) -> { }))
        {
            final SubscriptionPartitionState state = store.state();
            for (long offset = 0; offset < 40_000; offset++)
            {
                assertThat(state.state(offset) == MessageState.ACKED).as("offset %d acked", offset)
                    .isEqualTo(offset % 2 == 0);
            }
        }
    }

    @Test
    void inOrderAcksTakeAFewBytesAndScatteredOnesEightEach()
    {
        try (SubscriptionStateStore store = open())
        {
            final SubscriptionPartitionState state = store.state();
            state.logEnd(3_000);
            state.acquire(3_000, CONSUMER, (offset, deliveryNumber) -> {});
            store.commit();
            long before = store.journalBytes();
            for (long offset = 0; offset < 1_000; offset++)
            {
                state.ack(offset, 1);
            }
            store.commit();
            assertThat(store.journalBytes() - before).isEqualTo(JournalDescriptor.ENTRY_HEADER_LENGTH + 12);

            before = store.journalBytes();
            for (long offset = 1_000; offset < 2_000; offset += 2)
            {
                state.ack(offset, 1);
            }
            store.commit();
            assertThat(store.journalBytes() - before).isEqualTo(JournalDescriptor.ENTRY_HEADER_LENGTH + 500 * 8);

            for (long offset = 2_000; offset < 3_000; offset++)
            {
                if (offset % 10 < 3 || offset % 10 > 4)
                {
                    state.ack(offset, 1);
                }
            }
            store.commit();
        }
        try (SubscriptionStateStore store = open())
        {
            final SubscriptionPartitionState state = store.state();
            for (long offset = 0; offset < 3_000; offset++)
            {
                final boolean acked = offset < 1_000 || offset < 2_000 && offset % 2 == 0 ||
                    offset >= 2_000 && (offset % 10 < 3 || offset % 10 > 4);
                assertThat(state.state(offset)).as("offset %d", offset)
                    .isEqualTo(acked ? MessageState.ACKED : MessageState.AVAILABLE);
            }
        }
    }

    @Test
    void startOffsetOfANewStateIsKeptAcrossRestart()
    {
        try (SubscriptionStateStore store = SubscriptionStateStore.open(directory, 2, LIMIT_3, 500, clock,
            StateStoreConfig.DEFAULT, DeadLetterHandler.NONE))
        {
            assertThat(store.state().ackFloor()).isEqualTo(500);
        }
        try (SubscriptionStateStore store = open())
        {
            assertThat(store.state().ackFloor()).isEqualTo(500);
            assertThat(store.state().readCursor()).isEqualTo(500);
        }
    }

    @Test
    void invalidStoreSettingsAreRefused()
    {
        assertThatThrownBy(() -> StateStoreConfig.DEFAULT.compactionThresholdBytes(10))
            .isInstanceOf(InvalidSettingsException.class).hasMessageContaining("compaction threshold");
        assertThatThrownBy(() -> StateStoreConfig.DEFAULT.durability(null))
            .isInstanceOf(InvalidSettingsException.class);
        for (final int window : new int[] {0, 4096, StateStoreConfig.MIN_JOURNAL_WINDOW_BYTES + 4096,
            StateStoreConfig.MAX_JOURNAL_WINDOW_BYTES + StateStoreConfig.MIN_JOURNAL_WINDOW_BYTES})
        {
            assertThatThrownBy(() -> StateStoreConfig.DEFAULT.journalWindowBytes(window))
                .isInstanceOf(InvalidSettingsException.class).hasMessageContaining("journal window");
        }
        assertThatThrownBy(() -> StateDurability.interval(0))
            .isInstanceOf(InvalidSettingsException.class).hasMessageContaining("interval");
    }
}
