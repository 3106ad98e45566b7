package io.spool.queue;

import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.routing.Binding;
import io.spool.api.routing.ExchangeType;
import io.spool.log.OpenReport;
import io.spool.queue.internal.registry.SubscriptionCatalog;
import io.spool.testing.SlowTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * One damaged small file costs only what it touches. Each kind of small file (topic metadata, subscription catalog,
 * exchange catalog, subscription snapshot) is damaged by truncation and by a flipped byte, in the file alone and in
 * the file and its copy; the engine opens every time, says what it found, the rest serves, and no confirmed record
 * is lost.
 */
@SlowTest
class DamagedSmallFilesTest
{
    private static final int ORDERS = 20;
    private static final int ACKED = 10;
    private static final int AUDITS = 10;

    enum Kind
    {
        TOPIC_METADATA("stream/topics.meta"),
        SUBSCRIPTION_CATALOG("queue/subscriptions.catalog"),
        EXCHANGE_CATALOG("queue/exchanges"),
        SNAPSHOT("queue/billing/0/snapshot.bin");

        final String path;

        Kind(final String path)
        {
            this.path = path;
        }
    }

    enum Damage
    {
        TRUNCATED, FLIPPED_BYTE
    }

    @TempDir
    Path root;

    @Test
    void eachDamagedSmallFileCostsOnlyWhatItTouches() throws IOException
    {
        int cases = 0;
        for (final Kind kind : Kind.values())
        {
            for (final Damage damage : Damage.values())
            {
                for (final boolean copyToo : new boolean[] {false, true})
                {
                    damageAndReopen(root.resolve(kind + "-" + damage + "-" + copyToo), kind, damage, copyToo);
                    cases++;
                }
            }
        }
        assertThat(cases).isEqualTo(Kind.values().length * Damage.values().length * 2);
    }

    private void damageAndReopen(final Path dir, final Kind kind, final Damage damage, final boolean copyToo)
        throws IOException
    {
        final String label = kind + " " + damage + (copyToo ? " with its copy" : " alone");
        setUp(dir);
        damage(dir.resolve(kind.path), damage);
        if (copyToo)
        {
            damage(dir.resolve(kind.path + ".bak"), damage);
        }

        try (QueueFixture fx = new QueueFixture(dir))
        {
            final OpenReport report = fx.spool.openReport();
            assertThat(report.findings()).as(label).singleElement().satisfies(finding ->
                assertThat(finding.action()).isEqualTo(expectedAction(kind, copyToo)));

            assertThat(fx.readTopic("orders")).as(label + ": every confirmed record").hasSize(ORDERS);
            assertThat(fx.readTopic("audit")).as(label + ": every confirmed record").hasSize(AUDITS);
            fx.publish("audit", "new audit");
            final List<String> audits = QueueFixture.drain(fx.spool.subscription("auditing"));
            assertThat(audits).as(label).hasSize(AUDITS + 1).endsWith("new audit");

            if (kind == Kind.SNAPSHOT && copyToo)
            {
                assertThatThrownBy(() -> fx.spool.subscription("billing"))
                    .isInstanceOf(SubscriptionQuarantinedException.class).hasMessageContaining("snapshot");
                assertThat(dir.resolve(kind.path)).as("a quarantined subscription's files stay").exists();
                fx.spool.deleteSubscription("billing");
                fx.spool.createSubscription("billing", "orders", SubscriptionSettings.DEFAULT);
                assertThat(QueueFixture.drain(fx.spool.subscription("billing"))).as(label).hasSize(ORDERS);
                return;
            }
            fx.publish("orders", "new order");
            final List<String> expected = new ArrayList<>();
            for (int i = ACKED; i < ORDERS; i++)
            {
                expected.add("job-" + i);
            }
            expected.add("new order");
            assertThat(QueueFixture.drain(fx.spool.subscription("billing"))).as(label + ": the acks are kept")
                .isEqualTo(expected);
            if (kind == Kind.EXCHANGE_CATALOG && copyToo)
            {
                assertThat(fx.spool.router().exchanges().all()).as(label).isEmpty();
            }
            else
            {
                assertThat(fx.spool.router().exchange("events").bindings()).as(label).hasSize(1);
            }
        }
        try (QueueFixture fx = new QueueFixture(dir))
        {
            assertThat(fx.spool.openReport().isClean()).as(label + ", the next open: " + fx.spool.openReport())
                .isTrue();
        }
    }

    @Test
    void aDamagedJournalHeaderQuarantinesOnlyItsSubscription() throws IOException
    {
        final Path dir = root.resolve("journal");
        setUp(dir);
        final Path journal = dir.resolve("queue/billing/0/journal-0.log");
        final byte[] bytes = Files.readAllBytes(journal);
        bytes[0] ^= 0x10;
        Files.write(journal, bytes);

        try (QueueFixture fx = new QueueFixture(dir))
        {
            assertThat(fx.spool.openReport().findings()).singleElement().satisfies(finding ->
            {
                assertThat(finding.action()).isEqualTo(OpenReport.Action.QUARANTINED);
                assertThat(finding.subject()).isEqualTo("subscription billing");
            });
            assertThatThrownBy(() -> fx.spool.subscription("billing"))
                .isInstanceOf(SubscriptionQuarantinedException.class).hasMessageContaining("journal");
            assertThat(fx.readTopic("orders")).hasSize(ORDERS);
            assertThat(QueueFixture.drain(fx.spool.subscription("auditing"))).hasSize(AUDITS);
        }
    }

    @Test
    void aCatalogRebuiltWithoutAnUnreadableEntrySetsThatSubscriptionAside() throws IOException
    {
        final Path dir = root.resolve("entry");
        setUp(dir);
        damage(dir.resolve("queue/subscriptions.catalog"), Damage.FLIPPED_BYTE);
        damage(dir.resolve("queue/subscriptions.catalog.bak"), Damage.TRUNCATED);
        damage(dir.resolve("queue/billing/" + SubscriptionCatalog.ENTRY_FILE), Damage.FLIPPED_BYTE);

        try (QueueFixture fx = new QueueFixture(dir))
        {
            assertThat(fx.spool.openReport().findings()).extracting(OpenReport.Finding::action)
                .containsExactly(OpenReport.Action.REBUILT, OpenReport.Action.QUARANTINED);
            assertThat(fx.spool.subscriptions()).containsExactly("auditing");
            assertThat(QueueFixture.drain(fx.spool.subscription("auditing"))).hasSize(AUDITS);
            assertThatThrownBy(() -> fx.spool.subscription("billing"))
                .isInstanceOf(SubscriptionQuarantinedException.class).hasMessageContaining("queue-quarantine");
            assertThat(dir.resolve("queue-quarantine/billing/0/snapshot.bin")).as("its state is kept aside").exists();
        }
        try (QueueFixture fx = new QueueFixture(dir))
        {
            assertThat(fx.spool.openReport().isClean()).as(fx.spool.openReport().toString()).isTrue();
            fx.spool.createSubscription("billing", "orders", SubscriptionSettings.DEFAULT);
            assertThat(QueueFixture.drain(fx.spool.subscription("billing"))).as("afresh, nothing inherited")
                .hasSize(ORDERS);
        }
    }

    /** Two topics, a subscription on each, an exchange bound to one; half of one subscription's messages acked. */
    private static void setUp(final Path dir)
    {
        try (QueueFixture fx = new QueueFixture(dir))
        {
            fx.topic("orders", 1);
            fx.topic("audit", 1);
            final Subscription billing = fx.spool.createSubscription("billing", "orders",
                SubscriptionSettings.DEFAULT);
            fx.spool.createSubscription("auditing", "audit", SubscriptionSettings.DEFAULT);
            fx.spool.router().declare("events", ExchangeType.DIRECT, null);
            fx.spool.router().bind("events", Binding.direct("billing", "bill"));
            fx.publishJobs("orders", ORDERS);
            fx.publishJobs("audit", AUDITS);
            billing.receive(ACKED, 0).forEach(delivery -> billing.ack(delivery.receipt()));
            billing.sync();
        }
    }

    private static OpenReport.Action expectedAction(final Kind kind, final boolean copyToo)
    {
        if (!copyToo)
        {
            return OpenReport.Action.RESTORED_FROM_COPY;
        }
        return switch (kind)
        {
            case TOPIC_METADATA, SUBSCRIPTION_CATALOG -> OpenReport.Action.REBUILT;
            case EXCHANGE_CATALOG, SNAPSHOT -> OpenReport.Action.QUARANTINED;
        };
    }

    private static void damage(final Path file, final Damage damage) throws IOException
    {
        assertThat(file).exists();
        final byte[] bytes = Files.readAllBytes(file);
        if (damage == Damage.TRUNCATED)
        {
            Files.write(file, Arrays.copyOf(bytes, bytes.length / 2));
        }
        else
        {
            bytes[bytes.length / 2] ^= 0x10;
            Files.write(file, bytes);
        }
    }
}
