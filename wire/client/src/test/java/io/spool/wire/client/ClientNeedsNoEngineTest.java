package io.spool.wire.client;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The client artifact's class path is what an application that only talks to a server gets: the API, the protocol,
 * Netty and Agrona. This test runs on exactly that class path (Maven resolves this module's dependencies alone), so a
 * dependency that drags the engine in fails it.
 */
class ClientNeedsNoEngineTest
{
    @ParameterizedTest
    @ValueSource(strings = {
        "io.spool.log.PartitionLog",
        "io.spool.log.LogStore",
        "io.spool.stream.StreamEngine",
        "io.spool.queue.Subscription",
        "io.spool.Spool",
        "io.spool.wire.server.SpoolServer",
        "io.spool.cluster.ClusterNode",
        "com.lmax.disruptor.RingBuffer",
        "org.apache.kafka.clients.producer.KafkaProducer"})
    void engineClassesAreNotOnTheClientsClassPath(final String engineClass)
    {
        assertThatThrownBy(() -> Class.forName(engineClass, false, getClass().getClassLoader()))
            .isInstanceOf(ClassNotFoundException.class);
    }

    @Test
    void theClientAndTheApiItHandsOutAre()
    {
        assertThatCode(() ->
        {
            Class.forName("io.spool.wire.client.SpoolClient", true, getClass().getClassLoader());
            Class.forName("io.spool.api.stream.ProducerRecord", true, getClass().getClassLoader());
            Class.forName("io.spool.api.queue.SubscriptionSettings", true, getClass().getClassLoader());
        }).doesNotThrowAnyException();
    }
}
