package io.spool.model;

import io.spool.api.SpoolException;
import io.spool.api.queue.AlreadySettledException;
import io.spool.api.queue.ConsumerOptions;
import io.spool.api.queue.Receipt;
import io.spool.api.queue.StaleReceiptException;
import io.spool.api.queue.UnknownDeliveryException;
import io.spool.model.QueueModel.Outcome;
import io.spool.api.queue.BatchResult;
import io.spool.queue.Delivery;
import io.spool.queue.DeliveryListener;
import io.spool.queue.QueueConsumer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The consumers of a {@link QueueSystem}: the pull consumer and the push consumer of the first subscription and
 * the pull consumer of the audit one; what each is handed out, and what each settlement answers, checked against the
 * models. Not thread-safe, but for what the push consumer's thread hands over.
 * <p>
 * The engine picks which partition a multi-partition receive starts with, so the property does not predict that
 * choice: it checks that the engine took, in every partition, what the model's {@link QueueModel#plan} says (the
 * lowest ready offsets in order, each group's head with its run), and as many as there were up to the asked
 * number, then applies the engine's choice to the model. A push consumer is served
 * before any receive in the agent's pass, so after each step it holds as many messages as its prefetch allows or
 * nothing is ready for it.
 * <p>
 * Receipts are the model's, named by subscription; the engine's receipt of one carries the issuer that subscription's
 * deliveries carry, which must stay the same across restarts and differ between the two subscriptions.
 */
final class QueueConsumers
{
    static final String PULL = "pull";
    static final String PUSH = "push";

    /** A delivery as the test saw it, copied out of the engine's (possibly pooled) delivery. */
    record Seen(long issuer, int partition, long offset, int deliveryNumber, String value, boolean redelivered)
    {
        static Seen of(final Delivery delivery)
        {
            return new Seen(delivery.issuer(), delivery.partition(), delivery.offset(), delivery.deliveryNumber(),
                delivery.valueAsString(), delivery.redelivered());
        }
    }

    private final QueueSystem system;
    /** Every receipt handed out so far, the stale and settled ones too: settling them must be refused. */
    private final List<QueueModel.Receipt> receipts = new ArrayList<>();
    private final List<QueueModel.Receipt> auditReceipts = new ArrayList<>();
    private final BlockingQueue<Seen> pushed = new LinkedBlockingQueue<>();
    private final BlockingQueue<SpoolException> refusedPushSettlements = new LinkedBlockingQueue<>();
    /** Each subscription's receipt issuer, as its deliveries carry it. */
    private final Map<String, Long> issuers = new HashMap<>();
    /** The receipts handed to the push consumer. */
    private final List<QueueModel.Receipt> pushReceipts = new ArrayList<>();
    private QueueConsumer consumer;
    private int prefetch;

    QueueConsumers(final QueueSystem system)
    {
        this.system = system;
    }

    void receive(final int max)
    {
        CoverageChecks.ran("receive");
        final QueueModel model = system.model;
        if (model.waitingForGroup() > 0)
        {
            CoverageChecks.ran("receive while messages wait for their group");
        }
        final long receivable = receivable(model);
        final List<Seen> received = system.subscription.receive(max, 0).stream().map(Seen::of).toList();
        assertThat(received).as("receive %d with %d receivable", max, receivable)
            .hasSize((int)Math.min(max, receivable));
        takeFromModel(model, receipts, received, PULL);
        system.settle();
    }

    void auditReceive(final int max)
    {
        CoverageChecks.ran("audit receive");
        final long receivable = receivable(system.auditModel);
        final List<Seen> received = system.audit.receive(max, 0).stream().map(Seen::of).toList();
        assertThat(received).as("audit receive %d with %d receivable", max, receivable)
            .hasSize((int)Math.min(max, receivable));
        takeFromModel(system.auditModel, auditReceipts, received, PULL);
        system.settle();
    }

    /** The audit subscription acks, in one batch, every delivery it holds. */
    void auditAck()
    {
        final List<QueueModel.Receipt> held = auditReceipts.stream()
            .filter(r -> system.auditModel.check(r) == Outcome.DONE).toList();
        if (held.isEmpty())
        {
            return;
        }
        CoverageChecks.ran("audit ack");
        final BatchResult result = system.audit.ack(held.stream().map(this::engineReceipt).toList());
        assertThat(result.failed()).as("audit acks of held deliveries refused").isEmpty();
        held.forEach(system.auditModel::ack);
        system.settle();
    }

    /** What a receive with no bound would hand out: each partition's whole plan. */
    private static long receivable(final QueueModel model)
    {
        long receivable = 0;
        for (int partition = 0; partition < QueueSystem.PARTITIONS; partition++)
        {
            receivable += model.plan(partition, Integer.MAX_VALUE).size();
        }
        return receivable;
    }

    /**
     * Checks that the engine handed out, in each partition, what the model's plan says, with the delivery numbers and
     * redelivered flags the model gives them; the model then holds them too.
     */
    private void takeFromModel(final QueueModel model, final List<QueueModel.Receipt> handedOut,
        final List<Seen> deliveries, final String holder)
    {
        final Map<Integer, List<Seen>> byPartition = new LinkedHashMap<>();
        for (final Seen seen : deliveries)
        {
            byPartition.computeIfAbsent(seen.partition(), p -> new ArrayList<>()).add(seen);
        }
        byPartition.forEach((partition, seen) ->
        {
            final List<QueueMessage> plan = model.plan(partition, seen.size());
            if (!model.readyInOrder(partition).containsAll(plan))
            {
                CoverageChecks.ran("hand out a run of a group");
            }
            final List<Long> planned = plan.stream().map(QueueMessage::offset).toList();
            assertThat(seen.stream().map(Seen::offset).toList())
                .as("offsets handed out from partition %d; model %s", partition, model).isEqualTo(planned);
            final List<QueueModel.Delivery> taken = model.receive(partition, seen.size(), holder, system.clock.time());
            for (int i = 0; i < seen.size(); i++)
            {
                final Seen actual = seen.get(i);
                final QueueModel.Delivery expected = taken.get(i);
                final long issuer = issuers.computeIfAbsent(expected.subscription(), name -> actual.issuer());
                assertThat(actual).as("delivery").isEqualTo(new Seen(issuer, expected.partition(), expected.offset(),
                    expected.deliveryNumber(), expected.value(), expected.redelivered()));
                assertThat(issuers.values().stream().distinct().count()).as("issuers of %s", issuers.keySet())
                    .isEqualTo(issuers.size());
                handedOut.add(expected.receipt());
            }
        });
    }

    /**
     * Rejects the receipt handed out {@code back} receipts ago and crashes the engine as soon as the reject returned,
     * before anything waits for its dead letter: the letter must reach the dead-letter topic once all the same.
     */
    void rejectAndCrash(final int back)
    {
        if (receipts.isEmpty())
        {
            return;
        }
        final QueueModel.Receipt receipt = fromNewest(receipts, back);
        final Throwable thrown = catchThrowable(() -> system.subscription.reject(engineReceipt(receipt)));
        final Outcome expected = system.model.reject(receipt);
        assertThat(outcomeOf(thrown)).as("reject %s (%s)", receipt, thrown).isEqualTo(expected);
        if (expected == Outcome.DONE)
        {
            CoverageChecks.ran("crash right after a reject returned");
        }
        system.followPass();
        system.crash();
    }

    /** Settles the receipt handed out {@code back} receipts ago; nothing happens while there is none. */
    void settle(final String kind, final int back, final long millis)
    {
        if (receipts.isEmpty())
        {
            return;
        }
        CoverageChecks.ran(kind);
        final QueueModel model = system.model;
        final QueueModel.Receipt receipt = fromNewest(receipts, back);
        final long now = system.clock.time();
        final Receipt engineReceipt = engineReceipt(receipt);
        final Outcome expected;
        final Throwable thrown;
        switch (kind)
        {
            case "ack" ->
            {
                thrown = catchThrowable(() -> system.subscription.ack(engineReceipt));
                expected = model.ack(receipt);
            }
            case "nack" ->
            {
                thrown = catchThrowable(() -> system.subscription.nack(engineReceipt));
                expected = model.nack(receipt, now);
            }
            case "nack with delay" ->
            {
                thrown = catchThrowable(() -> system.subscription.nack(engineReceipt, millis));
                expected = model.nackWithDelay(receipt, millis, now);
            }
            case "reject" ->
            {
                thrown = catchThrowable(() -> system.subscription.reject(engineReceipt));
                expected = model.reject(receipt);
            }
            case "extend" ->
            {
                thrown = catchThrowable(() -> system.subscription.extend(engineReceipt, millis));
                expected = model.extend(receipt, millis, now);
            }
            default -> throw new IllegalArgumentException(kind);
        }
        assertThat(outcomeOf(thrown)).as("%s %s (%s)", kind, receipt, thrown).isEqualTo(expected);
        system.settle();
    }

    /** Acks the receipt handed out {@code back} receipts ago with the delivery number after its own. */
    void ackForged(final int back)
    {
        if (receipts.isEmpty())
        {
            return;
        }
        CoverageChecks.ran("forged receipt");
        final QueueModel.Receipt handedOut = fromNewest(receipts, back);
        final QueueModel.Receipt forged = new QueueModel.Receipt(handedOut.subscription(), handedOut.partition(),
            handedOut.offset(), handedOut.deliveryNumber() + 1);
        final Throwable thrown = catchThrowable(() -> system.subscription.ack(engineReceipt(forged)));
        assertThat(outcomeOf(thrown)).as("ack %s (%s)", forged, thrown).isEqualTo(system.model.ack(forged));
        system.settle();
    }

    /** Acks, in one batch, everything pulled and still held, plus the {@code newest} receipts handed out. */
    void ackInBatch(final int newest)
    {
        final Set<QueueModel.Receipt> batch = new LinkedHashSet<>();
        receipts.stream().filter(r -> system.model.check(r) == Outcome.DONE && !pushReceipts.contains(r))
            .forEach(batch::add);
        batch.addAll(receipts.subList(Math.max(0, receipts.size() - newest), receipts.size()));
        if (batch.isEmpty())
        {
            return;
        }
        CoverageChecks.ran("ack in a batch");
        final BatchResult result = system.subscription.ack(batch.stream().map(this::engineReceipt)
            .toList());
        for (final QueueModel.Receipt receipt : batch)
        {
            final SpoolException error = result.failed().get(engineReceipt(receipt));
            assertThat(outcomeOf(error)).as("ack %s in a batch (%s)", receipt, error)
                .isEqualTo(system.model.ack(receipt));
        }
        system.settle();
    }

    /**
     * Settles, through one subscription, the receipt the other one handed out {@code back} receipts ago: the
     * first subscription on even draws, the audit one on odd. Both subscriptions delivered the same messages, so only
     * the issuer tells the receipts apart.
     */
    void ackOtherSubscriptionsReceipt(final int back)
    {
        final boolean throughFirst = back % 2 == 0;
        final List<QueueModel.Receipt> others = throughFirst ? auditReceipts : receipts;
        if (others.isEmpty())
        {
            return;
        }
        CoverageChecks.ran("ack a receipt of the other subscription");
        final QueueModel.Receipt receipt = fromNewest(others, back / 2);
        final Throwable thrown = catchThrowable(() ->
            (throughFirst ? system.subscription : system.audit).ack(engineReceipt(receipt)));
        final Outcome expected = (throughFirst ? system.model : system.auditModel).ack(receipt);
        assertThat(outcomeOf(thrown)).as("ack %s through the other subscription (%s)", receipt, thrown)
            .isEqualTo(expected);
        system.settle();
    }

    private Receipt engineReceipt(final QueueModel.Receipt receipt)
    {
        return new Receipt(issuers.get(receipt.subscription()), receipt.partition(), receipt.offset(),
            receipt.deliveryNumber());
    }

    private static Outcome outcomeOf(final Throwable thrown)
    {
        if (thrown == null)
        {
            return Outcome.DONE;
        }
        if (thrown instanceof StaleReceiptException)
        {
            return Outcome.STALE;
        }
        if (thrown instanceof AlreadySettledException)
        {
            return Outcome.ALREADY_SETTLED;
        }
        if (thrown instanceof UnknownDeliveryException)
        {
            return Outcome.UNKNOWN_DELIVERY;
        }
        throw new AssertionError("unexpected failure", thrown);
    }

    void openOrClosePushConsumer(final int prefetchOfNew)
    {
        if (consumer != null)
        {
            CoverageChecks.ran("close push consumer");
            consumer.close();
            consumer = null;
            system.model.release(PUSH, system.clock.time());
            system.settle();
            return;
        }
        CoverageChecks.ran("open push consumer");
        prefetch = prefetchOfNew;
        consumer = system.subscription.consume(ConsumerOptions.prefetch(prefetch), new DeliveryListener()
        {
            @Override
            public void onDelivery(final Delivery delivery, final QueueConsumer from)
            {
                pushed.add(Seen.of(delivery));
            }

            @Override
            public void onSettlementRefused(final Receipt receipt, final SpoolException error)
            {
                refusedPushSettlements.add(error);
            }
        });
        system.settle();
    }

    /** Acks through the consumer the delivery it was pushed {@code back} deliveries ago among those it holds. */
    void ackThroughPush(final int back)
    {
        final List<QueueModel.Receipt> held = pushReceipts.stream()
            .filter(r -> system.model.check(r) == Outcome.DONE).toList();
        if (held.isEmpty())
        {
            return;
        }
        CoverageChecks.ran("ack through push consumer");
        final QueueModel.Receipt receipt = fromNewest(held, back);
        consumer.ack(engineReceipt(receipt));
        assertThat(system.model.ack(receipt)).isEqualTo(Outcome.DONE);
        system.settle();
    }

    /**
     * Acks through the push consumer the receipt handed out {@code back} receipts ago, pulled or pushed, held or
     * not: the consumer settles only what it holds, and is told of anything else it was refused.
     */
    void ackAnyThroughPush(final int back)
    {
        if (consumer == null || receipts.isEmpty())
        {
            return;
        }
        CoverageChecks.ran("ack through push consumer a receipt it may not hold");
        final QueueModel.Receipt receipt = fromNewest(receipts, back);
        consumer.ack(engineReceipt(receipt));
        final Outcome expected = system.model.ackBy(PUSH, receipt);
        system.settle();
        if (expected != Outcome.DONE)
        {
            final SpoolException refusal = poll(refusedPushSettlements);
            assertThat(refusal).as("the push consumer was told its ack of %s was refused", receipt).isNotNull();
            assertThat(outcomeOf(refusal)).as("ack of %s through the push consumer (%s)", receipt, refusal)
                .isEqualTo(expected);
        }
    }

    /** The engine is shutting down, which closes the push consumer: @return the holders it closes. */
    List<String> closedByShutdown()
    {
        final List<String> closed = consumer == null ? List.of() : List.of(PUSH);
        consumer = null;
        return closed;
    }

    int pushConsumerCount()
    {
        return consumer == null ? 0 : 1;
    }

    void checkNoRefusedPushSettlements()
    {
        assertThat(refusedPushSettlements).as("settlements the push consumer had refused").isEmpty();
    }

    /**
     * Takes what the push consumer was given in the pass that just ended: as many messages as the prefetch leaves
     * room for, or all that are ready if fewer.
     */
    void takePushed()
    {
        if (consumer == null)
        {
            return;
        }
        final QueueModel model = system.model;
        final int expected = (int)Math.min(prefetch - model.heldBy(PUSH), receivable(model));
        final List<Seen> deliveries = new ArrayList<>();
        for (int i = 0; i < expected; i++)
        {
            final Seen seen = poll(pushed);
            assertThat(seen).as("push delivery %d of %d", i + 1, expected).isNotNull();
            deliveries.add(seen);
        }
        assertThat(pushed).as("pushed beyond the prefetch").isEmpty();
        final int before = receipts.size();
        takeFromModel(model, receipts, deliveries, PUSH);
        pushReceipts.addAll(receipts.subList(before, receipts.size()));
    }

    private static <T> T poll(final BlockingQueue<T> queue)
    {
        try
        {
            return queue.poll(10, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    /** The receipt {@code back} places before the newest, counting round when there are fewer. */
    private static QueueModel.Receipt fromNewest(final List<QueueModel.Receipt> receipts, final int back)
    {
        return receipts.get(receipts.size() - 1 - back % receipts.size());
    }
}
