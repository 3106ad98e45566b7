package io.spool.queue;

import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.internal.state.MessageState;
import io.spool.queue.internal.state.SubscriptionPartitionState;
import io.spool.queue.internal.store.SnapshotDescriptor;
import io.spool.queue.internal.store.SubscriptionStateStore;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Cuts the journal at every byte, as a crash in the middle of a write would, and reopens: every cut opens, keeps
 * every ack of the commits wholly before it, invents none, and never lowers a delivery count of those commits.
 */
class JournalTruncationTest
{
    private static final int ROUNDS = 8;

    @TempDir
    Path directory;

    private final CachedEpochClock clock = new CachedEpochClock();

    @Test
    void everyCutOfTheJournalRestoresAPrefixOfTheCommits() throws IOException
    {
        final Path original = directory.resolve("original");
        final List<Long> commitEnds = new ArrayList<>();
        final List<Set<Long>> ackedAfterCommit = new ArrayList<>();
        final List<int[]> countsAfterCommit = new ArrayList<>();
        try (SubscriptionStateStore store = open(original))
        {
            final SubscriptionPartitionState state = store.state();
            state.logEnd(40);
            final Set<Long> acked = new TreeSet<>();
            for (int round = 0; round < ROUNDS; round++)
            {
                final List<long[]> deliveries = new ArrayList<>();
                state.acquire(5, 1, (offset, deliveryNumber) -> deliveries.add(new long[]{offset, deliveryNumber}));
                for (int i = 0; i < deliveries.size(); i++)
                {
                    final long offset = deliveries.get(i)[0];
                    final int deliveryNumber = (int)deliveries.get(i)[1];
                    if (i % 3 == 2)
                    {
                        state.nack(offset, deliveryNumber);
                    }
                    else
                    {
                        state.ack(offset, deliveryNumber);
                        acked.add(offset);
                    }
                }
                store.commit();
                commitEnds.add(store.journalBytes());
                ackedAfterCommit.add(new TreeSet<>(acked));
                final int[] counts = new int[40];
                for (int offset = 0; offset < 40; offset++)
                {
                    counts[offset] = state.deliveryCount(offset);
                }
                countsAfterCommit.add(counts);
            }
        }
        final byte[] journal = Files.readAllBytes(original.resolve("journal-0.log"));
        final byte[] snapshot = Files.readAllBytes(original.resolve(SnapshotDescriptor.FILE_NAME));

        for (int cut = 0; cut <= journal.length; cut++)
        {
            final Path copy = directory.resolve("cut-" + cut);
            Files.createDirectories(copy);
            Files.write(copy.resolve(SnapshotDescriptor.FILE_NAME), snapshot);
            Files.write(copy.resolve("journal-0.log"), Arrays.copyOf(journal, cut));
            int lastWholeCommit = -1;
            while (lastWholeCommit + 1 < ROUNDS && commitEnds.get(lastWholeCommit + 1) <= cut)
            {
                lastWholeCommit++;
            }
            try (SubscriptionStateStore store = open(copy))
            {
                final SubscriptionPartitionState state = store.state();
                final Set<Long> restored = new TreeSet<>();
                for (long offset = 0; offset < state.readCursor(); offset++)
                {
                    if (state.state(offset) == MessageState.ACKED)
                    {
                        restored.add(offset);
                    }
                }
                assertThat(ackedAfterCommit.get(ROUNDS - 1)).as("cut at %d invents no ack", cut)
                    .containsAll(restored);
                if (lastWholeCommit >= 0)
                {
                    assertThat(restored).as("cut at %d keeps every ack before it", cut)
                        .containsAll(ackedAfterCommit.get(lastWholeCommit));
                    final int[] counts = countsAfterCommit.get(lastWholeCommit);
                    for (int offset = 0; offset < 40; offset++)
                    {
                        if (!restored.contains((long)offset))
                        {
                            assertThat(state.deliveryCount(offset)).as("count of %d after cut at %d", offset, cut)
                                .isGreaterThanOrEqualTo(counts[offset]);
                        }
                    }
                }
                assertThat(store.truncatedBytesOnOpen()).isLessThanOrEqualTo(cut);
            }
        }
    }

    @Test
    void aJournalLeftOpenEndsInZerosPastItsCommitsAndRestoresEveryOne() throws IOException
    {
        final Path original = directory.resolve("open");
        final Path copy = directory.resolve("copy");
        Files.createDirectories(copy);
        final Set<Long> acked = new TreeSet<>();
        try (SubscriptionStateStore store = open(original))
        {
            final SubscriptionPartitionState state = store.state();
            state.logEnd(40);
            for (int round = 0; round < ROUNDS; round++)
            {
                final List<long[]> deliveries = new ArrayList<>();
                state.acquire(5, 1, (offset, deliveryNumber) -> deliveries.add(new long[]{offset, deliveryNumber}));
                for (final long[] delivery : deliveries)
                {
                    state.ack(delivery[0], (int)delivery[1]);
                    acked.add(delivery[0]);
                }
                store.commit();
            }
            // Copied while the journal is open, as a killed process leaves it: grown by its mapping, zeros past the
            // commits.
            for (final String name : new String[]{"journal-0.log", SnapshotDescriptor.FILE_NAME})
            {
                Files.copy(original.resolve(name), copy.resolve(name));
            }
            assertThat(Files.size(copy.resolve("journal-0.log"))).isGreaterThan(store.journalBytes());
        }

        try (SubscriptionStateStore store = open(copy))
        {
            final SubscriptionPartitionState state = store.state();
            state.logEnd(40);
            final Set<Long> restored = new TreeSet<>();
            for (long offset = 0; offset < 40; offset++)
            {
                if (state.state(offset) == MessageState.ACKED)
                {
                    restored.add(offset);
                }
            }
            assertThat(restored).isEqualTo(acked).hasSize(40);
            assertThat(store.truncatedBytesOnOpen()).as("zeros the writer grew the file by are no torn write").isZero();
        }
    }

    private SubscriptionStateStore open(final Path path)
    {
        return SubscriptionStateStore.open(path, 0, SubscriptionSettings.DEFAULT, 0, clock, StateStoreConfig.DEFAULT,
            DeadLetterHandler.NONE);
    }
}
