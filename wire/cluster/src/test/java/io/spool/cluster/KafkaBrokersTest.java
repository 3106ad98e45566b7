package io.spool.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.spool.cluster.KafkaEntryDescriptor.KafkaAddress;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The announced Kafka listeners, as the metadata group's snapshot keeps them. */
class KafkaBrokersTest
{
    @Test
    void brokersReadBackFromASnapshotAreTheLatestOfEachNode()
    {
        final KafkaBrokers announced = new KafkaBrokers();
        announced.announced(new KafkaAddress(2, "10.0.0.2", 9092));
        announced.announced(new KafkaAddress(1, "10.0.0.1", 9092));
        announced.announced(new KafkaAddress(2, "10.0.0.2", 9093));
        final ByteBuf snapshot = Unpooled.buffer();
        announced.writeTo(snapshot);

        final KafkaBrokers restored = new KafkaBrokers();
        restored.announced(new KafkaAddress(3, "10.0.0.3", 9092));
        restored.readFrom(snapshot);

        assertThat(snapshot.isReadable()).as("bytes left after the brokers").isFalse();
        assertThat(restored.brokers()).isEqualTo(announced.brokers()).hasSize(2);
        assertThat(restored.brokers().get(1).port()).isEqualTo(9093);
    }
}
