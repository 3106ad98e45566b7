package io.spool.wire.server;

import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class ReadGateTest
{
    @Test
    void theConnectionIsReadOnlyWhenNeitherConfirmsNorAnswersAreBehind()
    {
        final EmbeddedChannel channel = new EmbeddedChannel();
        final AtomicInteger paused = new AtomicInteger();
        final ReadGate gate = new ReadGate(channel, paused);
        assertThat(channel.config().isAutoRead()).isTrue();

        gate.confirmsBehind(true);
        assertThat(channel.config().isAutoRead()).isFalse();
        assertThat(paused).hasValue(1);
        gate.answersUnread(true);
        gate.confirmsBehind(false);
        assertThat(channel.config().isAutoRead()).as("answers still unread").isFalse();
        assertThat(paused).hasValue(1);
        gate.answersUnread(false);
        assertThat(channel.config().isAutoRead()).isTrue();
        assertThat(gate.isConfirmsBehind()).isFalse();
        assertThat(paused).hasValue(0);
        channel.finishAndReleaseAll();
    }

    @Test
    void aPausedConnectionThatClosesIsNoLongerCounted()
    {
        final EmbeddedChannel channel = new EmbeddedChannel();
        final AtomicInteger paused = new AtomicInteger();
        final ReadGate gate = new ReadGate(channel, paused);
        gate.answersUnread(true);
        assertThat(paused).hasValue(1);

        gate.close();
        gate.answersUnread(false);
        gate.answersUnread(true);
        assertThat(paused).hasValue(0);
        channel.finishAndReleaseAll();
    }
}
