package io.spool.queue;

import io.spool.api.log.DedupKey;
import io.spool.api.InvalidRequestException;
import io.spool.api.queue.RedriveResult;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.queue.UnknownSubscriptionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static io.spool.queue.QueueFixture.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RedriveTest
{
    @TempDir
    Path dir;
    QueueFixture fx;

    @BeforeEach
    void open()
    {
        fx = new QueueFixture(dir);
        fx.topic("orders", 1);
        fx.topic("orders.dlq", 1);
    }

    @AfterEach
    void close()
    {
        fx.close();
    }

    private Subscription rejectAll(final String... values)
    {
        final Subscription work = fx.spool.createSubscription("work", "orders",
            SubscriptionSettings.builder().deadLetterTopic("orders.dlq").build());
        for (final String value : values)
        {
            fx.publishWith("orders", value, DedupKey.HEADER, "id-" + value);
        }
        for (final Delivery delivery : work.receive(10, 0))
        {
            work.reject(delivery.receipt());
        }
        fx.awaitRecords("orders.dlq", values.length);
        return work;
    }

    @Test
    void redriveAllMovesDeadMessagesBackToTheirSubscriptionOnlyKeepingIdsAndHistory()
    {
        final Subscription other = fx.spool.createSubscription("other", "orders", SubscriptionSettings.DEFAULT);
        rejectAll("a", "b");
        final List<Delivery> seenByOther = other.receive(10, 0);
        assertThat(values(seenByOther)).containsExactly("a", "b");
        seenByOther.forEach(d -> other.ack(d.receipt()));
        fx.reopen();

        final RedriveResult result = fx.spool.redriver().redriveAll("orders.dlq");
        final Subscription work = fx.spool.subscription("work");
        final List<Delivery> again = work.receive(10, 0);

        assertThat(result.moved()).isEqualTo(2);
        assertThat(result.nextOffset()).containsExactly(2);
        assertThat(values(again)).containsExactly("a", "b");
        assertThat(again.get(0).header(DedupKey.HEADER)).isEqualTo("id-a");
        assertThat(again.get(0).header(DeathHistory.COUNT)).isEqualTo("1");
        assertThat(again.get(0).header(Redriver.REDRIVEN_FROM)).isEqualTo("orders.dlq/0@0");
        assertThat(fx.spool.subscription("other").receive(10, 0)).isEmpty();

        work.reject(again.get(0).receipt());
        assertThat(QueueFixture.header(fx.awaitRecords("orders.dlq", 3).get(2), DeathHistory.COUNT)).isEqualTo("2");
    }

    @Test
    void aRangeRedrivesOnlyItsRecords()
    {
        final Subscription work = rejectAll("a", "b", "c");
        final RedriveResult result = fx.spool.redriver().redrive("orders.dlq", 1, 2);
        assertThat(result.moved()).isEqualTo(1);
        assertThat(result.nextOffset()).containsExactly(2);
        assertThat(values(work.receive(10, 0))).containsExactly("b");
    }

    @Test
    void recordsWithoutADeathHistoryAreSkippedAndBadRangesRefused()
    {
        fx.publish("orders.dlq", "not dead");
        assertThat(fx.spool.redriver().redriveAll("orders.dlq").skipped()).isEqualTo(1);
        assertThatThrownBy(() -> fx.spool.redriver().redrive("orders.dlq", 5, 5))
            .isInstanceOf(InvalidRequestException.class).hasMessageContaining("[5, 5)");
    }

    @Test
    void aSubscriptionsRedriveMovesOnlyTheMessagesThatDiedInIt()
    {
        final Subscription work = rejectAll("a", "b");
        final Subscription audit = fx.spool.createSubscription("audit", "orders",
            SubscriptionSettings.builder().deadLetterTopic("orders.dlq").build());
        for (final Delivery delivery : audit.receive(10, 0))
        {
            audit.reject(delivery.receipt());
        }
        fx.awaitRecords("orders.dlq", 4);

        final RedriveResult result = fx.spool.redriver().redriveSubscription("audit", 0, Long.MAX_VALUE);

        assertThat(result.moved()).isEqualTo(2);
        assertThat(result.skipped()).isEqualTo(2);
        assertThat(result.nextOffset()).containsExactly(4);
        assertThat(values(audit.receive(10, 0))).containsExactly("a", "b");
        assertThat(work.receive(10, 0)).isEmpty();
    }

    @Test
    void aSubscriptionsRedriveNeedsTheSubscriptionAndItsDeadLetterTopic()
    {
        fx.spool.createSubscription("plain", "orders", SubscriptionSettings.DEFAULT);
        assertThatThrownBy(() -> fx.spool.redriver().redriveSubscription("plain", 0, Long.MAX_VALUE))
            .isInstanceOf(InvalidRequestException.class).hasMessageContaining("plain has no dead-letter topic");
        assertThatThrownBy(() -> fx.spool.redriver().redriveSubscription("nope", 0, Long.MAX_VALUE))
            .isInstanceOf(UnknownSubscriptionException.class);
    }
}
