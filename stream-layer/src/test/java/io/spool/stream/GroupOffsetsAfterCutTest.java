package io.spool.stream;

import io.spool.api.stream.ConsumerRecord;
import io.spool.api.stream.NoOffsetForPartitionException;
import io.spool.api.stream.TopicPartition;
import io.spool.log.LogFixture;
import io.spool.log.OpenReport;
import io.spool.stream.internal.group.CommittedOffsetStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.spool.stream.EngineFixture.NO_WAIT;
import static io.spool.stream.EngineFixture.topic;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A group's committed offset past its log's end after recovery cut the log is forgotten at open, so the group's
 * reset policy decides where it goes on, and a record published after the repair reaches the group.
 */
class GroupOffsetsAfterCutTest
{
    private static final int RECORDS = 30;
    private static final int[] CUTS = {0, 5, 17, RECORDS - 1};
    private static final TopicPartition PARTITION = new TopicPartition("orders", 0);

    @TempDir
    Path root;

    @Test
    void theResetPolicyAppliesToAGroupOffsetPastACutLogsEnd()
    {
        int cases = 0;
        for (final int cut : CUTS)
        {
            for (final OffsetResetPolicy policy : OffsetResetPolicy.values())
            {
                cutBelowTheGroup(root.resolve(cut + "-" + policy), cut, policy);
                cases++;
            }
        }
        assertThat(cases).isEqualTo(CUTS.length * OffsetResetPolicy.values().length);
    }

    private void cutBelowTheGroup(final Path dir, final int cut, final OffsetResetPolicy policy)
    {
        final EngineFixture fixture = new EngineFixture(dir);
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("orders", topic(1));
            final StreamProducer producer = engine.newProducer();
            for (int i = 0; i < RECORDS; i++)
            {
                producer.send("orders", null, value(i)).join();
            }
            engine.groups().commitStandalone("g", Map.of(PARTITION, (long)RECORDS));
            engine.groups().commitStandalone("below", Map.of(PARTITION, 0L));
        }
        io.spool.log.LogFixture.damageRecordHolding(dir.resolve("topics/orders/0"), value(cut));

        try (StreamEngine engine = fixture.open())
        {
            assertThat(engine.topics().endOffset(PARTITION)).isEqualTo(cut);
            assertThat(engine.logStore().openReport().findings(OpenReport.Action.MOVED_TO_LOG_END))
                .singleElement().satisfies(finding -> assertThat(finding.subject()).isEqualTo("group g " + PARTITION));
            assertThat(engine.groups().committed("g", PARTITION)).isEqualTo(CommittedOffsetStore.NO_OFFSET);
            assertThat(engine.groups().committed("below", PARTITION)).as("an offset at or below the end stays")
                .isZero();
            engine.newProducer().send("orders", null, "after the repair".getBytes(StandardCharsets.UTF_8)).join();
            try (StreamConsumer consumer = engine.newConsumer(ConsumerConfig.group("g").withAutoCommit(false, 1)
                .withResetPolicy(policy)))
            {
                consumer.subscribe("orders", "g");
                if (policy == OffsetResetPolicy.ERROR)
                {
                    assertThatThrownBy(() -> consumer.poll(100, 1 << 20, NO_WAIT))
                        .isInstanceOf(NoOffsetForPartitionException.class);
                    return;
                }
                final List<ConsumerRecord> records = consumer.poll(100, 1 << 20, NO_WAIT);
                if (policy == OffsetResetPolicy.EARLIEST)
                {
                    assertThat(records).hasSize(cut + 1);
                }
                else
                {
                    assertThat(records).isEmpty();
                    engine.newProducer().send("orders", null, "later".getBytes(StandardCharsets.UTF_8)).join();
                    assertThat(consumer.poll(100, 1 << 20, NO_WAIT)).extracting(r -> EngineFixture.text(r.value()))
                        .containsExactly("later");
                    return;
                }
                assertThat(EngineFixture.text(records.get(records.size() - 1).value())).isEqualTo("after the repair");
            }
        }
    }

    private static byte[] value(final int i)
    {
        return String.format("record-%05d-%s", i, "y".repeat(40)).getBytes(StandardCharsets.UTF_8);
    }
}
