package io.spool.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.spool.api.queue.GroupKeySource;
import io.spool.api.queue.GroupMode;
import io.spool.api.queue.InvalidSettingsException;
import io.spool.api.queue.OverflowPolicy;
import io.spool.api.queue.RetentionMode;
import io.spool.api.queue.RetryPolicy;
import io.spool.api.queue.StartPosition;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.wire.client.SpoolClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * CREATE_SUBSCRIPTION carries every subscription setting: the codec round-trips each field, a subscription created
 * through {@code SpoolAdmin} has on the engine exactly the settings sent, and a bad value is refused with the
 * engine's own {@link InvalidSettingsException}.
 */
class SubscriptionSettingsWireTest
{
    /** Every field away from its default. */
    private static final SubscriptionSettings EVERY_FIELD = SubscriptionSettings.builder()
        .lockTimeoutMillis(7_000)
        .deliveryLimit(5)
        .deadLetterTopic("orders.dlq")
        .retentionMode(RetentionMode.NONE)
        .startPosition(StartPosition.timestamp(1_700_000_000_000L))
        .messageGroups(GroupMode.KEY_STICKY, GroupKeySource.RECORD_KEY)
        .retryPolicy(RetryPolicy.ladder(1_000, 5_000, 60_000))
        .messageTtlMillis(86_400_000)
        .singleActiveConsumer(true)
        .overflow(1_000, 1 << 20, OverflowPolicy.REJECT_PUBLISH_DLX)
        .build();

    /** Every getter, to show the fixture really leaves each default. */
    private static final List<Function<SubscriptionSettings, Object>> FIELDS = List.of(
        SubscriptionSettings::lockTimeoutMillis, SubscriptionSettings::deliveryLimit,
        SubscriptionSettings::deadLetterTopic, SubscriptionSettings::retentionMode,
        SubscriptionSettings::startPosition, SubscriptionSettings::groupMode, SubscriptionSettings::groupKeySource,
        SubscriptionSettings::retryPolicy, SubscriptionSettings::messageTtlMillis,
        SubscriptionSettings::singleActiveConsumer, SubscriptionSettings::maxLength, SubscriptionSettings::maxBytes,
        SubscriptionSettings::overflowPolicy);

    /** Where the fields after the dead-letter topic start in an encoding whose topic is "" (a uint16 count). */
    private static final int AFTER_EMPTY_TOPIC = 8 + 4 + 2;

    @TempDir
    Path dir;

    @Test
    void everyFieldRoundTripsThroughTheCodec()
    {
        assertThat(FIELDS).allSatisfy(field ->
            assertThat(field.apply(EVERY_FIELD)).isNotEqualTo(field.apply(SubscriptionSettings.DEFAULT)));
        final ByteBuf buffer = Unpooled.buffer();
        QueueDescriptor.encodeSettings(buffer, EVERY_FIELD);

        assertThat(QueueDescriptor.decodeSettings(buffer)).isEqualTo(EVERY_FIELD);
        assertThat(buffer.isReadable()).isFalse();
        buffer.release();
    }

    @Test
    void aSubscriptionCreatedOverTheWireHasEverySettingOnTheEngine()
    {
        final SubscriptionSettings sent = SubscriptionSettings.builder()
            .overflow(500, 64 * 1024, OverflowPolicy.REJECT_PUBLISH)
            .messageGroups(GroupMode.ORDERED, GroupKeySource.HEADER)
            .retryPolicy(RetryPolicy.ladder(100, 2_000, 30_000))
            .messageTtlMillis(3_600_000)
            .deadLetterTopic("orders.dlq")
            .build();
        try (WireFixture fixture = new WireFixture(dir))
        {
            final SpoolClient client = fixture.connect();
            client.admin().createTopic("orders", WireFixture.topic(2));
            client.admin().createTopic("orders.dlq", WireFixture.topic(1));
            client.admin().createSubscription("billing", "orders", sent);

            final SubscriptionSettings arrived = fixture.spool().subscription("billing").settings();
            assertThat(arrived.maxLength()).isEqualTo(500);
            assertThat(arrived.maxBytes()).isEqualTo(64 * 1024);
            assertThat(arrived.overflowPolicy()).isEqualTo(OverflowPolicy.REJECT_PUBLISH);
            assertThat(arrived.groupMode()).isEqualTo(GroupMode.ORDERED);
            assertThat(arrived.retryPolicy()).isEqualTo(RetryPolicy.ladder(100, 2_000, 30_000));
            assertThat(arrived.messageTtlMillis()).isEqualTo(3_600_000);
            assertThat(arrived).isEqualTo(sent);
        }
    }

    @Test
    void aBadSettingIsRefusedWithTheEnginesErrorNamingItAndTheConnectionGoesOn() throws IOException
    {
        try (WireFixture fixture = new WireFixture(dir))
        {
            fixture.connect().admin().createTopic("orders", WireFixture.topic(1));
            try (RawConnection raw = new RawConnection(fixture.server().port()).hello(""))
            {
                assertThat(refusal(raw, 21, SubscriptionSettings.DEFAULT,
                    settings -> settings.setByte(AFTER_EMPTY_TOPIC + 10, 9)))
                    .isInstanceOf(InvalidSettingsException.class).hasMessageContaining("unknown group mode code 9");
                assertThat(refusal(raw, 22, SubscriptionSettings.DEFAULT,
                    settings -> settings.setLongLE(AFTER_EMPTY_TOPIC + 12, -5)))
                    .isInstanceOf(InvalidSettingsException.class).hasMessageContaining("message TTL")
                    .hasMessageContaining("-5");
                final SubscriptionSettings ladder = SubscriptionSettings.builder()
                    .retryPolicy(RetryPolicy.ladder(1_000)).build();
                assertThat(refusal(raw, 23, ladder, settings -> settings.setLongLE(AFTER_EMPTY_TOPIC + 39, 0)))
                    .isInstanceOf(InvalidSettingsException.class).hasMessageContaining("retry delay")
                    .hasMessageContaining("was 0 ms");

                final ByteBuf list = RawConnection.frame(OpCode.LIST_SUBSCRIPTIONS, 24);
                FrameDescriptor.finish(list, 0);
                raw.send(list);
                final ByteBuffer names = raw.readFrame();
                assertThat(names.getInt(FrameDescriptor.HEADER_LENGTH)).isZero();
            }
            assertThat(fixture.spool().subscriptions()).isEmpty();
        }
    }

    /**
     * Sends CREATE_SUBSCRIPTION with {@code settings} encoded and then spoiled by {@code spoil} (given the settings
     * bytes alone, offsets from their start), and returns the exception the error reply stands for.
     */
    private static RuntimeException refusal(final RawConnection raw, final long correlationId,
        final SubscriptionSettings settings, final Consumer<ByteBuf> spoil) throws IOException
    {
        final ByteBuf encoded = Unpooled.buffer();
        QueueDescriptor.encodeSettings(encoded, settings);
        spoil.accept(encoded);
        final ByteBuf frame = RawConnection.frame(OpCode.CREATE_SUBSCRIPTION, correlationId);
        Fields.writeString(frame, "bad");
        Fields.writeString(frame, "orders");
        frame.writeBytes(encoded);
        encoded.release();
        FrameDescriptor.finish(frame, 0);
        raw.send(frame);

        final ByteBuffer reply = raw.readFrame();
        assertThat(reply.get(FrameDescriptor.FLAGS_OFFSET) & FrameDescriptor.FLAG_ERROR).isNotZero();
        assertThat(reply.getLong(FrameDescriptor.CORRELATION_ID_OFFSET)).isEqualTo(correlationId);
        assertThat(ErrorCode.fromCode(reply.getShort(FrameDescriptor.HEADER_LENGTH)))
            .isEqualTo(ErrorCode.INVALID_SETTINGS);
        final ByteBuf body = Unpooled.wrappedBuffer(reply.array());
        body.skipBytes(FrameDescriptor.HEADER_LENGTH);
        return ErrorDescriptor.decode(body);
    }
}
