package io.spool.queue;

import io.spool.api.queue.InvalidSettingsException;
import io.spool.api.queue.RetentionMode;
import io.spool.api.queue.StartPosition;
import io.spool.api.queue.SubscriptionSettings;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SubscriptionSettingsTest
{
    @Test
    void defaultsFollowSqsAndQuorumQueues()
    {
        final SubscriptionSettings settings = SubscriptionSettings.DEFAULT;

        assertThat(settings.lockTimeoutMillis()).isEqualTo(30_000);
        assertThat(settings.deliveryLimit()).isEqualTo(20);
        assertThat(settings.hasDeliveryLimit()).isTrue();
        assertThat(settings.deadLetterTopic()).isNull();
        assertThat(settings.retentionMode()).isEqualTo(RetentionMode.WORK_QUEUE);
        assertThat(settings.startPosition()).isEqualTo(StartPosition.earliest());
    }

    @Test
    void deliveryLimitIsTurnedOffOnlyExplicitly()
    {
        final SubscriptionSettings settings = SubscriptionSettings.builder()
            .deliveryLimit(SubscriptionSettings.UNLIMITED_DELIVERIES).build();

        assertThat(settings.hasDeliveryLimit()).isFalse();
        assertThat(SubscriptionSettings.builder().deliveryLimit(0).build().hasDeliveryLimit()).isTrue();
        assertThatThrownBy(() -> SubscriptionSettings.builder().deliveryLimit(-2).build())
            .isInstanceOf(InvalidSettingsException.class)
            .hasMessageContaining("delivery limit must be between 0 and 1000000, or -1").hasMessageContaining("was -2");
        assertThatThrownBy(() -> SubscriptionSettings.builder().deliveryLimit(1_000_001).build())
            .isInstanceOf(InvalidSettingsException.class);
    }

    @Test
    void lockTimeoutMustBeBetweenOneMillisecondAndTwelveHours()
    {
        assertThat(SubscriptionSettings.builder().lockTimeoutMillis(12 * 3600 * 1000L).build().lockTimeoutMillis())
            .isEqualTo(43_200_000);
        assertThatThrownBy(() -> SubscriptionSettings.builder().lockTimeoutMillis(0).build())
            .isInstanceOf(InvalidSettingsException.class).hasMessageContaining("lock timeout").hasMessageContaining(
                "was 0 ms");
        assertThatThrownBy(() -> SubscriptionSettings.builder().lockTimeoutMillis(12 * 3600 * 1000L + 1).build())
            .isInstanceOf(InvalidSettingsException.class);
    }

    @Test
    void deadLetterTopicMustBeAValidTopicName()
    {
        assertThat(SubscriptionSettings.builder().deadLetterTopic("orders.dlq-1_x").build().deadLetterTopic())
            .isEqualTo("orders.dlq-1_x");
        assertThatThrownBy(() -> SubscriptionSettings.builder().deadLetterTopic("").build())
            .isInstanceOf(InvalidSettingsException.class).hasMessageContaining("dead-letter topic");
        assertThatThrownBy(() -> SubscriptionSettings.builder().deadLetterTopic("a/b").build())
            .isInstanceOf(InvalidSettingsException.class).hasMessageContaining("'a/b'");
        assertThatThrownBy(() -> SubscriptionSettings.builder().deadLetterTopic("x".repeat(250)).build())
            .isInstanceOf(InvalidSettingsException.class);
    }

    @Test
    void retentionModeAndStartPositionAreRequired()
    {
        assertThatThrownBy(() -> SubscriptionSettings.builder().retentionMode(null).build())
            .isInstanceOf(InvalidSettingsException.class).hasMessageContaining("retention mode");
        assertThatThrownBy(() -> SubscriptionSettings.builder().startPosition(null).build())
            .isInstanceOf(InvalidSettingsException.class).hasMessageContaining("start position");
    }

    @Test
    void startPositionsValidateTheirValue()
    {
        assertThat(StartPosition.offset(42).kind()).isEqualTo(StartPosition.Kind.OFFSET);
        assertThat(StartPosition.offset(42).value()).isEqualTo(42);
        assertThat(StartPosition.timestamp(1_700_000_000_000L).kind()).isEqualTo(StartPosition.Kind.TIMESTAMP);
        assertThat(StartPosition.latest().toString()).isEqualTo("latest");
        assertThat(StartPosition.offset(42).toString()).isEqualTo("offset:42");
        assertThatThrownBy(() -> StartPosition.offset(-1))
            .isInstanceOf(InvalidSettingsException.class).hasMessageContaining("start offset");
        assertThatThrownBy(() -> StartPosition.timestamp(-1))
            .isInstanceOf(InvalidSettingsException.class).hasMessageContaining("start timestamp");
    }

    @Test
    void toBuilderKeepsEverySetting()
    {
        final SubscriptionSettings settings = SubscriptionSettings.builder().lockTimeoutMillis(5_000).deliveryLimit(3)
            .deadLetterTopic("dead").retentionMode(RetentionMode.NONE).startPosition(StartPosition.latest()).build();

        assertThat(settings.toBuilder().build()).isEqualTo(settings).hasSameHashCodeAs(settings);
        assertThat(settings.toString()).contains("deliveryLimit=3", "deadLetterTopic=dead", "NONE", "latest");
    }
}
