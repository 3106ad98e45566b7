package io.spool.cluster;

import io.spool.api.InvalidRequestException;
import io.spool.api.queue.GroupKeySource;
import io.spool.api.queue.GroupMode;
import io.spool.api.queue.OverflowPolicy;
import io.spool.api.queue.RetentionMode;
import io.spool.api.queue.RetryPolicy;
import io.spool.api.queue.StartPosition;
import io.spool.api.queue.SubscriptionSettings;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every setting a replicated subscription does not honour is refused by name, and the ones it honours pass. */
class ReplicatedSubscriptionSettingsTest
{
    static Stream<Arguments> settingsNotHonoured()
    {
        return Stream.of(
            Arguments.of("startPosition", SubscriptionSettings.builder().startPosition(StartPosition.latest())),
            Arguments.of("groupMode", SubscriptionSettings.builder().messageGroups(GroupMode.ORDERED,
                GroupKeySource.HEADER)),
            Arguments.of("groupKeySource", SubscriptionSettings.builder().messageGroups(GroupMode.NONE,
                GroupKeySource.RECORD_KEY)),
            Arguments.of("retryPolicy", SubscriptionSettings.builder().retryPolicy(RetryPolicy.ladder(1_000))),
            Arguments.of("messageTtlMillis", SubscriptionSettings.builder().messageTtlMillis(60_000)),
            Arguments.of("singleActiveConsumer", SubscriptionSettings.builder().singleActiveConsumer(true)),
            Arguments.of("maxLength", SubscriptionSettings.builder().overflow(100, SubscriptionSettings.NO_LIMIT,
                OverflowPolicy.DROP_HEAD)),
            Arguments.of("maxBytes", SubscriptionSettings.builder().overflow(SubscriptionSettings.NO_LIMIT, 1 << 20,
                OverflowPolicy.DROP_HEAD)),
            Arguments.of("overflowPolicy", SubscriptionSettings.builder().overflow(SubscriptionSettings.NO_LIMIT,
                SubscriptionSettings.NO_LIMIT, OverflowPolicy.REJECT_PUBLISH)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("settingsNotHonoured")
    void aSettingNotHonouredIsRefusedByNameSayingToLeaveItAtItsDefault(final String setting,
        final SubscriptionSettings.Builder settings)
    {
        assertThatThrownBy(() -> ReplicatedSubscriptionSettings.check(settings.build()))
            .isInstanceOf(InvalidRequestException.class)
            .hasMessageStartingWith("a replicated subscription does not yet support " + setting + " (set to ")
            .hasMessageContaining("leave it at its default");
    }

    @Test
    void theLockTimeoutDeliveryLimitDeadLetterTopicAndRetentionModeAreHonoured()
    {
        assertThatCode(() -> ReplicatedSubscriptionSettings.check(SubscriptionSettings.builder()
            .lockTimeoutMillis(5_000).deliveryLimit(3).deadLetterTopic("orders-dead")
            .retentionMode(RetentionMode.NONE).build())).doesNotThrowAnyException();
    }
}
