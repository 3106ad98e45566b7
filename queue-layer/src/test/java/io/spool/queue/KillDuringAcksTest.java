package io.spool.queue;

import io.spool.queue.internal.state.MessageState;
import io.spool.queue.internal.state.SubscriptionPartitionState;
import io.spool.queue.internal.store.SubscriptionStateStore;
import io.spool.testing.CrashTest;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.LongHashSet;
import org.agrona.concurrent.SystemEpochClock;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kills a child JVM with SIGKILL while it acks, nacks, rejects and snapshots, then reopens its state: no ack the
 * child printed as committed comes back, no delivery count is lower than printed, no dead message returns, and no
 * message is past its delivery limit.
 */
@CrashTest
class KillDuringAcksTest
{
    private static final int ACKS_BEFORE_KILL = 3000;
    private static final int SNAPSHOTS_BEFORE_KILL = 2;

    @TempDir
    Path directory;

    @ParameterizedTest
    @ValueSource(strings = {"none", "interval", "every_batch"})
    @Timeout(90)
    void committedAcksAndCountsSurviveSigkill(final String durability) throws Exception
    {
        final Process child = startChild(durability);
        final LongHashSet acked = new LongHashSet();
        final LongHashSet dead = new LongHashSet();
        final Long2LongHashMap deliveries = new Long2LongHashMap(0);
        int snapshots = 0;
        try (BufferedReader reader = new BufferedReader(
            new InputStreamReader(child.getInputStream(), StandardCharsets.US_ASCII)))
        {
            // Reading stops at the kill: every line read is complete and was printed after its commit returned.
            String line;
            while ((line = reader.readLine()) != null)
            {
                final String[] parts = line.split(" ");
                switch (parts[0])
                {
                    case "D":
                        deliveries.put(Long.parseLong(parts[1]), Long.parseLong(parts[2]));
                        break;
                    case "A":
                        acked.add(Long.parseLong(parts[1]));
                        break;
                    case "X":
                        dead.add(Long.parseLong(parts[1]));
                        break;
                    default:
                        snapshots++;
                        break;
                }
                if (acked.size() >= ACKS_BEFORE_KILL && snapshots >= SNAPSHOTS_BEFORE_KILL)
                {
                    child.destroyForcibly();
                    break;
                }
            }
        }
        assertThat(child.waitFor()).as("exit code of a SIGKILLed JVM").isEqualTo(137);
        assertThat(acked.size()).isGreaterThanOrEqualTo(ACKS_BEFORE_KILL);

        try (SubscriptionStateStore store = SubscriptionStateStore.open(directory, 0, AckingChild.settings(), 0,
            SystemEpochClock.INSTANCE, AckingChild.config(durability), DeadLetterHandler.NONE))
        {
            final SubscriptionPartitionState state = store.state();
            for (final long offset : acked)
            {
                assertThat(state.state(offset)).as("offset %d was acked", offset).isEqualTo(MessageState.ACKED);
            }
            for (final long offset : dead)
            {
                assertThat(state.state(offset)).as("offset %d went dead", offset)
                    .isIn(MessageState.DEAD, MessageState.ACKED);
            }
            deliveries.forEachLong((offset, printed) ->
            {
                if (state.state(offset) == MessageState.AVAILABLE)
                {
                    assertThat(state.deliveryCount(offset)).as("delivery count of offset %d", offset)
                        .isGreaterThanOrEqualTo((int)printed)
                        .isLessThanOrEqualTo(AckingChild.DELIVERY_LIMIT);
                }
            });
            state.acquire(Integer.MAX_VALUE, 2, (offset, deliveryNumber) ->
            {
                assertThat(acked.contains(offset)).as("acked offset %d delivered again", offset).isFalse();
                assertThat(deliveryNumber).as("a limit of 5 allows a sixth delivery, never a seventh")
                    .isLessThanOrEqualTo(AckingChild.DELIVERY_LIMIT + 1);
            });
        }
    }

    private Process startChild(final String durability) throws IOException
    {
        final String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-Xmx128m",
            "-cp", System.getProperty("java.class.path"), AckingChild.class.getName(), directory.toString(),
            durability, "7")
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    }
}
