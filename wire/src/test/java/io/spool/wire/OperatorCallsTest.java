package io.spool.wire;

import io.netty.buffer.ByteBuf;
import io.spool.api.queue.QueueException;
import io.spool.api.queue.RedriveResult;
import io.spool.api.queue.SubscriptionDescription;
import io.spool.api.queue.SubscriptionMetrics;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.queue.UnknownSubscriptionException;
import io.spool.api.stream.GroupReport;
import io.spool.api.stream.InvalidGroupException;
import io.spool.api.stream.OffsetSpec;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicPartition;
import io.spool.api.stream.UnknownGroupException;
import io.spool.api.stream.UnknownPartitionException;
import io.spool.api.stream.UnknownTopicException;
import io.spool.wire.client.RemoteDelivery;
import io.spool.wire.client.RemoteGroups;
import io.spool.wire.client.RemoteSubscription;
import io.spool.wire.client.SpoolAdmin;
import io.spool.wire.client.SpoolClient;
import io.spool.wire.server.ServerConfig;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import static io.spool.wire.RoundTripTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The operator's calls over the wire: describe, purge and redrive a subscription; list, describe, reset and delete
 * consumer groups. Each answers as the embedded engine does, and bad input gets the engine's own exception.
 */
class OperatorCallsTest
{
    private static final TopicPartition P0 = new TopicPartition("orders", 0);
    private static final TopicPartition P1 = new TopicPartition("orders", 1);

    @TempDir
    Path dir;
    private final CachedEpochClock clock = new CachedEpochClock();
    private WireFixture fixture;
    private SpoolClient client;
    private SpoolAdmin admin;

    @BeforeEach
    void start()
    {
        fixture = new WireFixture(dir, ServerConfig.builder(), clock);
        client = fixture.connect();
        admin = client.admin();
        admin.createTopic("orders", WireFixture.topic(2));
        admin.createTopic("orders.dlq", WireFixture.topic(1));
    }

    @AfterEach
    void stop()
    {
        fixture.close();
    }

    private void publish(final int partition, final String... values)
    {
        for (final String value : values)
        {
            fixture.spool().newProducer().send(ProducerRecord.toPartition("orders", partition, null, bytes(value)))
                .join();
        }
    }

    @Test
    void describeSubscriptionCarriesTheTopicEverySettingAndTheMetrics()
    {
        final SubscriptionSettings settings = SubscriptionSettings.builder().lockTimeoutMillis(12_345)
            .deliveryLimit(3).deadLetterTopic("orders.dlq").build();
        admin.createSubscription("billing", "orders", settings);
        clock.update(1_000_000);
        publish(0, "a", "b", "c");
        clock.advance(2_500);
        final RemoteSubscription billing = client.subscription("billing");
        billing.ack(billing.receive(1, 0).get(0).receipt());
        billing.receive(1, 0);

        final SubscriptionDescription remote = admin.describeSubscription("billing");
        final SubscriptionMetrics embedded = fixture.spool().subscription("billing").metrics();

        assertThat(remote.name()).isEqualTo("billing");
        assertThat(remote.topic()).isEqualTo("orders");
        assertThat(remote.settings()).isEqualTo(settings);
        assertThat(remote.metrics().toString()).isEqualTo(embedded.toString());
        assertThat(remote.metrics().ready()).isEqualTo(1);
        assertThat(remote.metrics().inFlight()).isEqualTo(1);
        assertThat(remote.metrics().acks()).isEqualTo(1);
        assertThat(remote.metrics().oldestReadyAgeMillis()).isEqualTo(2_500);
        assertThatThrownBy(() -> admin.describeSubscription("nope")).isInstanceOf(UnknownSubscriptionException.class)
            .hasMessageContaining("nope");
    }

    @Test
    void purgeEmptiesTheSubscriptionAnswersWhatItHeldAndRefusesTheOldReceipts()
    {
        admin.createSubscription("billing", "orders", SubscriptionSettings.DEFAULT);
        publish(0, "a", "b", "c");
        final RemoteSubscription billing = client.subscription("billing");
        final RemoteDelivery held = billing.receive(1, 0).get(0);

        final SubscriptionMetrics before = admin.purgeSubscription("billing");

        assertThat(before.ready()).isEqualTo(2);
        assertThat(before.inFlight()).isEqualTo(1);
        final SubscriptionMetrics after = admin.describeSubscription("billing").metrics();
        assertThat(after.ready()).isZero();
        assertThat(after.inFlight()).isZero();
        assertThatThrownBy(() -> billing.ack(held.receipt()))
            .isInstanceOf(QueueException.class).hasMessageContaining("refused");
        publish(0, "d");
        assertThat(billing.receive(10, 0)).extracting(RemoteDelivery::valueAsString).containsExactly("d");
        assertThatThrownBy(() -> admin.purgeSubscription("nope")).isInstanceOf(UnknownSubscriptionException.class);
    }

    @Test
    void redriveMovesTheSubscriptionsDeadLettersBackAndRefusesBadInput()
    {
        admin.createSubscription("billing", "orders",
            SubscriptionSettings.builder().deadLetterTopic("orders.dlq").build());
        admin.createSubscription("plain", "orders", SubscriptionSettings.DEFAULT);
        publish(1, "a", "b");
        final RemoteSubscription billing = client.subscription("billing");
        for (final RemoteDelivery delivery : billing.receive(10, 0))
        {
            billing.reject(delivery.receipt());
        }
        assertThat(WireFixture.await(() -> fixture.spool().streams().describeTopic("orders.dlq").partitions().get(0)
            .endOffset() == 2, java.time.Duration.ofSeconds(10))).isTrue();

        final RedriveResult result = admin.redrive("billing", 0, Long.MAX_VALUE);

        assertThat(result.moved()).isEqualTo(2);
        assertThat(result.skipped()).isZero();
        assertThat(result.nextOffset()).containsExactly(2);
        assertThat(billing.receive(10, 0)).extracting(RemoteDelivery::valueAsString).containsExactly("a", "b");
        assertThatThrownBy(() -> admin.redrive("plain", 0, Long.MAX_VALUE))
            .isInstanceOf(io.spool.api.InvalidRequestException.class).hasMessageContaining("no dead-letter topic");
        assertThatThrownBy(() -> admin.redrive("billing", 5, 5))
            .isInstanceOf(io.spool.api.InvalidRequestException.class).hasMessageContaining("[5, 5)");
        assertThatThrownBy(() -> admin.redrive("nope", 0, 1)).isInstanceOf(UnknownSubscriptionException.class);
    }

    @Test
    void groupsAreListedDescribedWithLagResetWhenIdleAndDeleted()
    {
        publish(0, "a", "b", "c");
        publish(1, "d");
        final RemoteGroups groups = client.groups();
        groups.commitStandalone("billing", Map.of(P0, 1L));
        final String member = fixture.connect().groups().join("billing", Set.of("orders"), "range", 60_000);

        assertThat(groups.list()).containsExactly("billing");
        final GroupReport report = groups.describe("billing");
        assertThat(report.active()).isTrue();
        assertThat(report.membership().members()).containsExactly(member);
        assertThat(report.membership().subscriptions().get(member)).containsExactly("orders");
        assertThat(report.membership().targetAssignment().get(member)).containsExactlyInAnyOrder(P0, P1);
        assertThat(report.partitions()).containsExactly(
            new GroupReport.PartitionPosition(P0, 1, 0, 3, 2),
            new GroupReport.PartitionPosition(P1, GroupReport.PartitionPosition.NO_OFFSET, 0, 1, 1));
        assertThat(report).isEqualTo(fixture.spool().streams().describeGroup("billing"));

        assertThatThrownBy(() -> groups.resetOffsets("billing", "orders", List.of(), OffsetSpec.latest()))
            .isInstanceOf(InvalidGroupException.class).hasMessageContaining("live members");
        assertThatThrownBy(() -> groups.delete("billing")).isInstanceOf(InvalidGroupException.class);
        groups.leave("billing", member);

        assertThat(groups.planOffsetReset("billing", "orders", List.of(), OffsetSpec.latest()))
            .isEqualTo(Map.of(P0, 3L, P1, 1L));
        assertThat(groups.committed("billing")).isEqualTo(Map.of(P0, 1L));
        assertThat(groups.resetOffsets("billing", "orders", List.of(0), OffsetSpec.earliest()))
            .isEqualTo(Map.of(P0, 0L));
        assertThat(groups.resetOffsets("billing", "orders", List.of(1), OffsetSpec.offset(1)))
            .isEqualTo(Map.of(P1, 1L));
        assertThat(groups.resetOffsets("billing", "orders", List.of(), OffsetSpec.timestamp(0)))
            .isEqualTo(Map.of(P0, 0L, P1, 0L));
        assertThat(groups.describe("billing").active()).isFalse();

        groups.delete("billing");
        assertThat(groups.list()).isEmpty();
    }

    @Test
    void unknownGroupsTopicsAndPartitionsGetTheEnginesExceptions()
    {
        final RemoteGroups groups = client.groups();
        assertThatThrownBy(() -> groups.describe("nobody")).isInstanceOf(UnknownGroupException.class)
            .hasMessageContaining("\"nobody\"");
        assertThatThrownBy(() -> groups.delete("nobody")).isInstanceOf(UnknownGroupException.class);
        assertThatThrownBy(() -> groups.describe("")).isInstanceOf(InvalidGroupException.class);
        assertThatThrownBy(() -> groups.resetOffsets("g", "nope", List.of(), OffsetSpec.latest()))
            .isInstanceOf(UnknownTopicException.class);
        assertThatThrownBy(() -> groups.resetOffsets("g", "orders", List.of(7), OffsetSpec.latest()))
            .isInstanceOf(UnknownPartitionException.class);
        assertThat(groups.list()).isEmpty();
    }

    @Test
    void malformedOperatorFramesGetAnErrorAndTheConnectionGoesOn() throws Exception
    {
        try (RawConnection raw = new RawConnection(fixture.server().port()).hello(""))
        {
            assertAnswered(raw, OpCode.RESET_OFFSETS, body -> reset(body).writeIntLE(0).writeByte(9).writeLongLE(0)
                .writeByte(0), ErrorCode.INVALID_REQUEST);
            assertAnswered(raw, OpCode.RESET_OFFSETS, body -> reset(body).writeIntLE(0)
                .writeByte(OffsetSpec.Kind.OFFSET.ordinal()).writeLongLE(-5).writeByte(0),
                ErrorCode.INVALID_REQUEST);
            assertAnswered(raw, OpCode.RESET_OFFSETS, body -> reset(body).writeIntLE(0).writeByte(0).writeLongLE(0)
                .writeByte(2), ErrorCode.INVALID_REQUEST);
            assertAnswered(raw, OpCode.RESET_OFFSETS, body -> reset(body).writeIntLE(1_000_000),
                ErrorCode.MALFORMED_FRAME);
            assertAnswered(raw, OpCode.REDRIVE, body ->
            {
                Fields.writeString(body, "billing");
                body.writeLongLE(0);
            }, ErrorCode.MALFORMED_FRAME);
            assertAnswered(raw, OpCode.DESCRIBE_SUBSCRIPTION, body ->
            {
                Fields.writeString(body, "billing");
                body.writeByte(1);
            }, ErrorCode.MALFORMED_FRAME);
            assertAnswered(raw, OpCode.LIST_GROUPS, body -> body.writeByte(1), ErrorCode.MALFORMED_FRAME);
        }
        assertThat(client.groups().list()).isEmpty();
        assertThat(admin.listSubscriptions()).isEmpty();
    }

    private static ByteBuf reset(final ByteBuf body)
    {
        Fields.writeString(body, "g");
        Fields.writeString(body, "orders");
        return body;
    }

    private static void assertAnswered(final RawConnection raw, final int opCode, final Consumer<ByteBuf> body,
        final ErrorCode expected) throws Exception
    {
        final ByteBuf frame = RawConnection.frame(opCode, 7);
        body.accept(frame);
        FrameDescriptor.finish(frame, 0);
        raw.send(frame);
        assertThat(raw.readErrorCode()).isEqualTo(expected);
    }
}
