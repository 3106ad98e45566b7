package io.spool.wire;

import io.spool.api.log.Durability;
import io.spool.api.queue.GroupKeySource;
import io.spool.api.queue.GroupMode;
import io.spool.api.queue.OverflowPolicy;
import io.spool.api.queue.RetentionMode;
import io.spool.api.queue.StartPosition;
import io.spool.api.routing.ExchangeType;
import io.spool.api.routing.HeadersMatch;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The choice fields of frames travel as their enum's position (docs/design/protocol.md lists the codes), so reordering or
 * inserting a constant in the engine would silently change the protocol. These lists pin the codes: a change here
 * is a protocol change, with a new version.
 */
class WireEnumCodesTest
{
    @Test
    void subscriptionSettingCodesAreTheDocumentedOnes()
    {
        assertThat(RetentionMode.values()).containsExactly(RetentionMode.WORK_QUEUE, RetentionMode.NONE);
        assertThat(StartPosition.Kind.values()).containsExactly(StartPosition.Kind.EARLIEST,
            StartPosition.Kind.LATEST, StartPosition.Kind.OFFSET, StartPosition.Kind.TIMESTAMP);
        assertThat(GroupMode.values()).containsExactly(GroupMode.NONE, GroupMode.ORDERED, GroupMode.KEY_STICKY);
        assertThat(GroupKeySource.values()).containsExactly(GroupKeySource.HEADER, GroupKeySource.RECORD_KEY);
        assertThat(OverflowPolicy.values()).containsExactly(OverflowPolicy.DROP_HEAD, OverflowPolicy.REJECT_PUBLISH,
            OverflowPolicy.REJECT_PUBLISH_DLX);
    }

    @Test
    void exchangeTopicAndSettlementCodesAreTheDocumentedOnes()
    {
        assertThat(ExchangeType.values()).containsExactly(ExchangeType.DIRECT, ExchangeType.TOPIC,
            ExchangeType.FANOUT, ExchangeType.HEADERS);
        assertThat(HeadersMatch.Mode.values()).containsExactly(HeadersMatch.Mode.ALL, HeadersMatch.Mode.ANY);
        assertThat(Durability.Kind.values()).containsExactly(Durability.Kind.NONE, Durability.Kind.INTERVAL,
            Durability.Kind.EVERY_BATCH);
        assertThat(QueueDescriptor.SettleKind.values()).containsExactly(QueueDescriptor.SettleKind.ACK,
            QueueDescriptor.SettleKind.NACK, QueueDescriptor.SettleKind.NACK_DELAYED, QueueDescriptor.SettleKind.REJECT,
            QueueDescriptor.SettleKind.EXTEND);
    }
}
