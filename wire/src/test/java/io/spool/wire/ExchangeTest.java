package io.spool.wire;

import io.spool.api.routing.Binding;
import io.spool.api.routing.Exchange;
import io.spool.api.routing.ExchangeType;
import io.spool.api.routing.HeadersMatch;
import io.spool.api.routing.InvalidRoutingException;
import io.spool.api.routing.UnknownExchangeException;
import io.spool.wire.client.RemoteExchanges;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.spool.wire.RoundTripTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExchangeTest
{
    @TempDir
    Path dir;
    private WireFixture fixture;
    private RemoteExchanges exchanges;

    @BeforeEach
    void start()
    {
        fixture = new WireFixture(dir);
        exchanges = fixture.connect().exchanges();
    }

    @AfterEach
    void stop()
    {
        fixture.close();
    }

    @Test
    void exchangesAreDeclaredBoundListedAndRouteLikeTheEmbeddedOnes()
    {
        fixture.spool().createTopic("shop", io.spool.api.stream.TopicConfig.of(1));
        for (final String subscription : List.of("eu-billing", "dead-ends", "eu-events", "urgent"))
        {
            fixture.spool().createSubscription(subscription, "shop", io.spool.api.queue.SubscriptionSettings.DEFAULT);
        }
        exchanges.declare("unrouted", ExchangeType.FANOUT, null);
        exchanges.declare("orders", ExchangeType.DIRECT, "unrouted");
        exchanges.declare("events", ExchangeType.TOPIC, null);
        exchanges.declare("tagged", ExchangeType.HEADERS, null);
        exchanges.declare("orders", ExchangeType.DIRECT, "unrouted");
        exchanges.bind("orders", Binding.direct("eu-billing", "eu"));
        exchanges.bind("unrouted", Binding.fanout("dead-ends"));
        exchanges.bind("events", Binding.topic("eu-events", "*.eu.#"));
        exchanges.bind("tagged", Binding.headers("urgent", new HeadersMatch(HeadersMatch.Mode.ANY,
            Map.of("priority", bytes("high"), "sla", bytes("gold")))));

        assertThat(exchanges.route("orders", "eu", Map.of()).subscriptions()).containsExactly("eu-billing");
        final RemoteExchanges.Route elsewhere = exchanges.route("orders", "us", Map.of());
        assertThat(elsewhere.subscriptions()).containsExactly("dead-ends");
        assertThat(elsewhere.viaAlternate()).isTrue();
        assertThat(exchanges.route("events", "shop.eu.paris.new", Map.of()).subscriptions())
            .containsExactly("eu-events");
        assertThat(exchanges.route("events", "shop.us", Map.of()).isUnroutable()).isTrue();
        assertThat(exchanges.route("tagged", "", Map.of("sla", bytes("gold"))).subscriptions())
            .containsExactly("urgent");

        final List<Exchange> listed = exchanges.list();
        assertThat(listed).extracting(Exchange::name).containsExactlyInAnyOrder("unrouted", "orders", "events",
            "tagged");
        final Exchange orders = listed.stream().filter(e -> e.name().equals("orders")).findFirst().orElseThrow();
        assertThat(orders.alternateExchange()).isEqualTo("unrouted");
        assertThat(orders.bindings()).containsExactly(Binding.direct("eu-billing", "eu"));
        assertThat(fixture.spool().router().exchange("events").bindings())
            .containsExactly(Binding.topic("eu-events", "*.eu.#"));

        assertThat(exchanges.unbind("orders", Binding.direct("eu-billing", "eu"))).isTrue();
        assertThat(exchanges.unbind("orders", Binding.direct("eu-billing", "eu"))).isFalse();
        assertThat(exchanges.delete("events")).isTrue();
        assertThat(exchanges.delete("events")).isFalse();
    }

    @Test
    void mistakesComeBackAsTheEngineExceptions()
    {
        exchanges.declare("orders", ExchangeType.DIRECT, null);
        assertThatThrownBy(() -> exchanges.declare("orders", ExchangeType.TOPIC, null))
            .isInstanceOf(InvalidRoutingException.class).hasMessageContaining("already exists");
        assertThatThrownBy(() -> exchanges.route("nowhere", "k", Map.of()))
            .isInstanceOf(UnknownExchangeException.class).hasMessage(new UnknownExchangeException("nowhere").getMessage());
        assertThatThrownBy(() -> exchanges.bind("nowhere", Binding.fanout("s")))
            .isInstanceOf(UnknownExchangeException.class);
        assertThatThrownBy(() -> exchanges.bind("orders", Binding.direct("no-such-subscription", "k")))
            .isInstanceOf(io.spool.api.queue.UnknownSubscriptionException.class);
    }
}
