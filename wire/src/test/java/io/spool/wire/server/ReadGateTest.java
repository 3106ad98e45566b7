package io.spool.wire.server;

import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ReadGateTest
{
    @Test
    void theConnectionIsReadOnlyWhenNeitherConfirmsNorAnswersAreBehind()
    {
        final EmbeddedChannel channel = new EmbeddedChannel();
        final ReadGate gate = new ReadGate(channel);
        assertThat(channel.config().isAutoRead()).isTrue();

        gate.confirmsBehind(true);
        assertThat(channel.config().isAutoRead()).isFalse();
        gate.answersUnread(true);
        gate.confirmsBehind(false);
        assertThat(channel.config().isAutoRead()).as("answers still unread").isFalse();
        gate.answersUnread(false);
        assertThat(channel.config().isAutoRead()).isTrue();
        assertThat(gate.isConfirmsBehind()).isFalse();
        channel.finishAndReleaseAll();
    }
}
