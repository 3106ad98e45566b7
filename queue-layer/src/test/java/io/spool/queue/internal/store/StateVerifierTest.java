package io.spool.queue.internal.store;

import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.CorruptStateException;
import io.spool.queue.DeadLetterHandler;
import io.spool.queue.StateStoreConfig;
import io.spool.queue.internal.state.SubscriptionPartitionState;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StateVerifierTest
{
    private static final SubscriptionSettings LIMIT_2 = SubscriptionSettings.builder().deliveryLimit(2).build();

    @TempDir
    Path directory;

    @Test
    void reportsWhatAnOpenWouldRestoreWithoutChangingAnyFile() throws IOException
    {
        final CachedEpochClock clock = new CachedEpochClock();
        try (SubscriptionStateStore store = SubscriptionStateStore.open(directory, 4, LIMIT_2, 0, clock,
            StateStoreConfig.DEFAULT, DeadLetterHandler.NONE))
        {
            final SubscriptionPartitionState state = store.state();
            state.logEnd(10);
            state.acquire(8, 1, (offset, deliveryNumber) -> {});
            state.ack(0, 1);
            state.ack(2, 1);
            state.reject(3, 1);
            state.nackWithDelay(4, 1, 60_000);
            state.nack(5, 1);
            state.acquire(1, 1, (offset, deliveryNumber) -> {});
            state.nack(5, 2);
            store.snapshot();
            state.nack(6, 1);
            state.acquire(1, 1, (offset, deliveryNumber) -> {});
            store.commit();
        }
        final Path journal = directory.resolve("journal-1.log");
        Files.write(journal, new byte[]{1, 2, 3}, StandardOpenOption.APPEND);
        final byte[] journalBefore = Files.readAllBytes(journal);

        final StateReport report = StateVerifier.verify(directory, LIMIT_2);

        assertThat(report.partition()).isEqualTo(4);
        assertThat(report.generation()).isEqualTo(1);
        assertThat(report.ackFloor()).isEqualTo(1);
        assertThat(report.readCursor()).isEqualTo(8);
        assertThat(report.ackedAboveFloor()).isEqualTo(1);
        assertThat(report.deadAboveFloor()).isEqualTo(1);
        assertThat(report.delayed()).isEqualTo(1);
        assertThat(report.available()).isEqualTo(3);
        assertThat(report.deadOnOpen()).as("offset 5 is held on its third delivery").isEqualTo(1);
        assertThat(report.maxDeliveryCount()).isEqualTo(3);
        assertThat(report.journalBytes() - report.journalValidBytes()).isEqualTo(3);
        assertThat(report.toString()).contains("ack floor 1, read cursor 8", "3 past the last valid entry");
        assertThat(Files.readAllBytes(journal)).isEqualTo(journalBefore);
    }

    @Test
    void directoryWithoutASnapshotIsReported()
    {
        assertThatThrownBy(() -> StateVerifier.verify(directory, LIMIT_2))
            .isInstanceOf(CorruptStateException.class).hasMessageContaining("no snapshot");
    }
}
