package io.spool.queue;

import io.spool.api.InvalidRequestException;
import io.spool.api.SpoolException;
import io.spool.api.queue.QueueException;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.internal.state.MessageState;
import io.spool.queue.internal.state.SubscriptionPartitionState;
import io.spool.queue.internal.store.SubscriptionStateStore;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.agrona.concurrent.CachedEpochClock;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random sequences of acquire, ack, nack, delayed nack, reject, extend, clock advance, expiry, consumer release,
 * log growth and restart (close and reopen from the files), run on the real state and on
 * {@link ReferenceQueueModel}; after every step both must agree on every message and every metric. Receipts are
 * drawn mostly from the latest ones and sometimes from any ever issued, so valid receipts, stale receipts and
 * double acks all come up.
 */
class SubscriptionStatePropertyTest
{
    private static final long LOCK_MILLIS = 5_000;
    private static final long INITIAL_LOG_END = 8;
    private static final long START_MILLIS = 1_000_000;

    enum Kind
    {
        ACQUIRE, ACK, NACK, NACK_WITH_DELAY, REJECT, EXTEND, ADVANCE_CLOCK, EXPIRE, RELEASE_CONSUMER, GROW_LOG,
        RESTART
    }

    static final class Step
    {
        final Kind kind;
        final int a;
        final int b;

        Step(final Kind kind, final int a, final int b)
        {
            this.kind = kind;
            this.a = a;
            this.b = b;
        }

        @Override
        public String toString()
        {
            return kind + "(" + a + ", " + b + ")";
        }
    }

    @Provide
    Arbitrary<List<Step>> steps()
    {
        final Arbitrary<Step> step = Combinators.combine(
            Arbitraries.frequency(
                Tuple(8, Kind.ACQUIRE), Tuple(6, Kind.ACK), Tuple(4, Kind.NACK), Tuple(4, Kind.NACK_WITH_DELAY),
                Tuple(2, Kind.REJECT), Tuple(2, Kind.EXTEND), Tuple(5, Kind.ADVANCE_CLOCK), Tuple(2, Kind.EXPIRE),
                Tuple(2, Kind.RELEASE_CONSUMER), Tuple(3, Kind.GROW_LOG), Tuple(2, Kind.RESTART)),
            Arbitraries.integers().between(0, 1_000), Arbitraries.integers().between(0, 3_000))
            .as(Step::new);
        return step.list().ofMinSize(1).ofMaxSize(80);
    }

    private static net.jqwik.api.Tuple.Tuple2<Integer, Kind> Tuple(final int weight, final Kind kind)
    {
        return net.jqwik.api.Tuple.of(weight, kind);
    }

    @Property(seed = "20261130")
    void stateAgreesWithTheReferenceModel(
        @ForAll("steps") final List<Step> steps,
        @ForAll("deliveryLimits") final int deliveryLimit) throws IOException
    {
        final Path directory = Files.createTempDirectory("spool-queue-property");
        final CachedEpochClock clock = new CachedEpochClock();
        clock.update(START_MILLIS);
        final SubscriptionSettings settings = SubscriptionSettings.builder().lockTimeoutMillis(LOCK_MILLIS)
            .deliveryLimit(deliveryLimit).build();
        final ReferenceQueueModel model = new ReferenceQueueModel(LOCK_MILLIS, deliveryLimit, START_MILLIS);
        final List<long[]> receipts = new ArrayList<>();
        SubscriptionStateStore store = open(directory, settings, clock);
        model.logEnd = INITIAL_LOG_END;
        store.state().logEnd(INITIAL_LOG_END);
        try
        {
            for (final Step step : steps)
            {
                store = apply(step, store, model, receipts, directory, settings, clock);
                assertAgree(store.state(), model, step);
            }
        }
        finally
        {
            Statistics.label("restart holding").coverage(coverage ->
            {
                coverage.checkQuery(values -> "delayed".equals(values.get(0))).count(count -> count >= 5);
                coverage.checkQuery(values -> "in flight".equals(values.get(1))).count(count -> count >= 20);
            });
            store.close();
            try (Stream<Path> files = Files.walk(directory))
            {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    @Provide
    Arbitrary<Integer> deliveryLimits()
    {
        return Arbitraries.of(SubscriptionSettings.UNLIMITED_DELIVERIES, 1, 2, 3);
    }

    private static SubscriptionStateStore open(
        final Path directory, final SubscriptionSettings settings, final CachedEpochClock clock)
    {
        return SubscriptionStateStore.open(directory, 0, settings, 0, clock,
            StateStoreConfig.DEFAULT.compactionThresholdBytes(1024), DeadLetterHandler.NONE);
    }

    private static SubscriptionStateStore apply(
        final Step step, final SubscriptionStateStore store, final ReferenceQueueModel model,
        final List<long[]> receipts, final Path directory, final SubscriptionSettings settings,
        final CachedEpochClock clock)
    {
        final SubscriptionPartitionState state = store.state();
        final long[] receipt = receipts.isEmpty() ? null : receipts.get(pickReceipt(step.a, receipts.size()));
        switch (step.kind)
        {
            case ACQUIRE:
                final int max = 1 + step.a % 5;
                final int consumer = step.b % 3;
                final List<long[]> expected = model.acquire(max, consumer);
                final List<long[]> actual = new ArrayList<>();
                state.acquire(max, consumer, (offset, deliveryNumber) -> actual.add(new long[]{offset,
                    deliveryNumber}));
                assertThat(actual).as("deliveries of %s", step).containsExactlyElementsOf(expected);
                receipts.addAll(actual);
                break;
            case ACK:
            case NACK:
            case NACK_WITH_DELAY:
            case REJECT:
            case EXTEND:
                if (receipt != null)
                {
                    actOnReceipt(step, state, model, receipt[0], (int)receipt[1]);
                }
                break;
            case ADVANCE_CLOCK:
                clock.advance(step.b % 2_000);
                model.now = clock.time();
                break;
            case EXPIRE:
                state.expireDue();
                model.expireDue();
                break;
            case RELEASE_CONSUMER:
                state.releaseConsumer(step.b % 3);
                model.releaseConsumer(step.b % 3);
                break;
            case GROW_LOG:
                model.logEnd += 1 + step.a % 4;
                state.logEnd(model.logEnd);
                break;
            default:
                Statistics.label("restart holding").collect(
                    state.counts().delayedCount() > 0 ? "delayed" : "none",
                    state.counts().inFlightCount() > 0 ? "in flight" : "none");
                store.close();
                model.restart();
                final SubscriptionStateStore reopened = open(directory, settings, clock);
                reopened.state().logEnd(model.logEnd);
                return reopened;
        }
        store.commit();
        return store;
    }

    /** Two in three picks take one of the last four receipts, which are likely still valid; the rest any. */
    private static int pickReceipt(final int choice, final int issued)
    {
        return choice % 3 == 0 ? choice % issued : issued - 1 - choice % Math.min(issued, 4);
    }

    private static void actOnReceipt(
        final Step step, final SubscriptionPartitionState state, final ReferenceQueueModel model, final long offset,
        final int deliveryNumber)
    {
        final Class<? extends QueueException> expected = model.refusal(offset, deliveryNumber);
        final long millis = 1 + step.b * 4L;
        SpoolException thrown = null;
        try
        {
            switch (step.kind)
            {
                case ACK:
                    state.ack(offset, deliveryNumber);
                    break;
                case NACK:
                    state.nack(offset, deliveryNumber);
                    break;
                case NACK_WITH_DELAY:
                    state.nackWithDelay(offset, deliveryNumber, millis);
                    break;
                case REJECT:
                    state.reject(offset, deliveryNumber);
                    break;
                default:
                    state.extend(offset, deliveryNumber, millis);
                    break;
            }
        }
        catch (final QueueException | InvalidRequestException ex)
        {
            thrown = ex;
        }
        assertThat(thrown == null ? null : thrown.getClass()).as("%s on receipt (%d, %d): %s", step, offset,
            deliveryNumber, thrown).isEqualTo(expected);
        if (expected != null)
        {
            return;
        }
        switch (step.kind)
        {
            case ACK:
                model.ack(offset);
                break;
            case NACK:
                model.nack(offset);
                break;
            case NACK_WITH_DELAY:
                model.nackWithDelay(offset, millis);
                break;
            case REJECT:
                model.reject(offset);
                break;
            default:
                model.extend(offset, millis);
                break;
        }
    }

    private static void assertAgree(
        final SubscriptionPartitionState state, final ReferenceQueueModel model, final Step step)
    {
        assertThat(state.ackFloor()).as("ack floor after %s", step).isEqualTo(model.ackFloor());
        assertThat(state.readCursor()).as("read cursor after %s", step).isEqualTo(model.cursor);
        for (long offset = 0; offset < model.logEnd; offset++)
        {
            final ReferenceQueueModel.Message message = model.delivered.get(offset);
            final MessageState expected = message == null ? MessageState.AVAILABLE :
                offset < model.ackFloor() ? MessageState.ACKED : message.state;
            assertThat(state.state(offset)).as("state of offset %d after %s", offset, step).isEqualTo(expected);
            if (message != null && offset >= model.ackFloor())
            {
                assertThat(state.deliveryCount(offset)).as("deliveries of offset %d after %s", offset, step)
                    .isEqualTo(message.deliveries);
            }
            if (expected == MessageState.ACQUIRED || expected == MessageState.DELAYED)
            {
                assertThat(state.deadline(offset)).as("deadline of offset %d after %s", offset, step)
                    .isEqualTo(message.deadline);
            }
            if (expected == MessageState.ACQUIRED)
            {
                assertThat(state.holder(offset)).as("holder of offset %d after %s", offset, step)
                    .isEqualTo(message.holder);
            }
        }
        assertThat(state.counts().inFlightCount()).as("in flight after %s", step)
            .isEqualTo(model.count(MessageState.ACQUIRED));
        for (int consumer = 0; consumer < 3; consumer++)
        {
            assertThat(state.inFlightOf(consumer)).as("in flight of consumer %d after %s", consumer, step)
                .isEqualTo(model.inFlightOf(consumer));
        }
        assertThat(state.counts().delayedCount()).as("delayed after %s", step)
            .isEqualTo(model.count(MessageState.DELAYED));
        assertThat(state.counts().readyCount()).as("ready after %s", step)
            .isEqualTo(model.count(MessageState.AVAILABLE) + model.logEnd - model.cursor);
        assertThat(state.counts().oldestReadyOffset()).as("oldest ready after %s", step)
            .isEqualTo(model.oldestReadyOffset());
    }
}
