package io.spool.queue;

import io.spool.api.InvalidRequestException;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.queue.UnknownSubscriptionException;
import io.spool.api.routing.Binding;
import io.spool.api.routing.ExchangeType;
import io.spool.api.routing.HeadersMatch;
import io.spool.api.routing.UnknownExchangeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

import static io.spool.queue.QueueFixture.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Publishing through exchanges: routed once at publish time, stored once per topic, seen by exactly the
 * subscriptions the bindings matched.
 */
class ExchangePublishTest
{
    @TempDir
    Path dir;
    QueueFixture fx;

    @BeforeEach
    void open()
    {
        fx = new QueueFixture(dir);
        fx.topic("orders", 1);
        fx.topic("audit", 1);
    }

    @AfterEach
    void close()
    {
        fx.close();
    }

    private RouteOutcome publish(final String exchange, final String routingKey, final String value,
        final boolean mandatory)
    {
        return fx.spool.router().publish(exchange, routingKey, null, Map.of(),
            value.getBytes(StandardCharsets.UTF_8), mandatory).join();
    }

    @Test
    void eachBoundSubscriptionSeesExactlyWhatItsBindingsMatchFromOneStoredCopy()
    {
        final Subscription eu = fx.spool.createSubscription("eu", "orders", SubscriptionSettings.DEFAULT);
        final Subscription all = fx.spool.createSubscription("all", "orders", SubscriptionSettings.DEFAULT);
        final Router router = fx.spool.router();
        router.declare("orders.x", ExchangeType.TOPIC, null);
        router.bind("orders.x", Binding.topic("eu", "order.eu.*"));
        router.bind("orders.x", Binding.topic("all", "order.#"));

        final RouteOutcome both = publish("orders.x", "order.eu.created", "eu order", false);
        publish("orders.x", "order.us.created", "us order", false);

        assertThat(both.status()).isEqualTo(RouteOutcome.Status.ROUTED);
        assertThat(both.subscriptions()).containsExactlyInAnyOrder("eu", "all");
        assertThat(both.stored()).hasSize(1);
        assertThat(fx.readTopic("orders")).hasSize(2);
        assertThat(values(eu.receive(10, 0))).containsExactly("eu order");
        assertThat(values(all.receive(10, 0))).containsExactly("eu order", "us order");
        assertThat(eu.metrics().ready()).isZero();
    }

    @Test
    void anUnroutableMessageIsReturnedWhenMandatoryElseCountedOrTakenByTheAlternate()
    {
        fx.spool.createSubscription("lost", "audit", SubscriptionSettings.DEFAULT);
        final Router router = fx.spool.router();
        router.declare("strict", ExchangeType.DIRECT, null);
        router.declare("lost-and-found", ExchangeType.FANOUT, null);
        router.declare("lenient", ExchangeType.DIRECT, "lost-and-found");
        router.bind("lost-and-found", Binding.fanout("lost"));

        assertThat(publish("strict", "nobody", "returned", true).status()).isEqualTo(RouteOutcome.Status.RETURNED);
        assertThat(publish("strict", "nobody", "dropped", false).status())
            .isEqualTo(RouteOutcome.Status.UNROUTABLE);
        final RouteOutcome alternate = publish("lenient", "nobody", "kept", true);

        assertThat(router.unroutableCount("strict")).isEqualTo(2);
        assertThat(alternate.subscriptions()).containsExactly("lost");
        assertThat(fx.readTopic("orders")).isEmpty();
        assertThat(values(fx.spool.subscription("lost").receive(10, 0))).containsExactly("kept");
    }

    @Test
    void aFanoutAcrossTopicsStoresOneCopyPerTopicAndHeadersExchangesMatchHeaders()
    {
        final Subscription billing = fx.spool.createSubscription("billing", "orders", SubscriptionSettings.DEFAULT);
        final Subscription audit = fx.spool.createSubscription("audit-log", "audit", SubscriptionSettings.DEFAULT);
        final Router router = fx.spool.router();
        router.declare("everything", ExchangeType.FANOUT, null);
        router.bind("everything", Binding.fanout("billing"));
        router.bind("everything", Binding.fanout("audit-log"));
        router.declare("by-region", ExchangeType.HEADERS, null);
        router.bind("by-region", Binding.headers("billing", new HeadersMatch(HeadersMatch.Mode.ALL,
            Map.of("region", "eu".getBytes(StandardCharsets.UTF_8)))));

        assertThat(publish("everything", "", "event", false).stored()).hasSize(2);
        router.publish("by-region", "", null, Map.of("region", "eu".getBytes(StandardCharsets.UTF_8)),
            "eu".getBytes(StandardCharsets.UTF_8), false).join();
        router.publish("by-region", "", null, Map.of("region", "us".getBytes(StandardCharsets.UTF_8)),
            "us".getBytes(StandardCharsets.UTF_8), false).join();

        assertThat(values(billing.receive(10, 0))).containsExactly("event", "eu");
        assertThat(values(audit.receive(10, 0))).containsExactly("event");
    }

    @Test
    void exchangesBindingsAndRoutingDecisionsSurviveARestart()
    {
        fx.spool.createSubscription("eu", "orders", SubscriptionSettings.DEFAULT);
        fx.spool.createSubscription("us", "orders", SubscriptionSettings.DEFAULT);
        fx.spool.router().declare("regions", ExchangeType.DIRECT, null);
        fx.spool.router().bind("regions", Binding.direct("eu", "eu"));
        fx.spool.router().bind("regions", Binding.direct("us", "us"));
        publish("regions", "eu", "before restart", false);
        fx.reopen();
        publish("regions", "us", "after restart", false);

        assertThat(values(fx.spool.subscription("eu").receive(10, 0))).containsExactly("before restart");
        assertThat(values(fx.spool.subscription("us").receive(10, 0))).containsExactly("after restart");
        assertThat(fx.spool.router().exchange("regions").bindings()).hasSize(2);
    }

    @Test
    void aHeadersBindingBindsOnceAndUnbindsByAnEqualMatchBeforeAndAfterARestart()
    {
        final Subscription billing = fx.spool.createSubscription("billing", "orders", SubscriptionSettings.DEFAULT);
        final Router router = fx.spool.router();
        router.declare("by-region", ExchangeType.HEADERS, null);
        router.bind("by-region", euPdf("billing"));
        router.bind("by-region", euPdf("billing"));
        assertThat(router.exchange("by-region").bindings()).as("binding an equal match twice is idempotent")
            .hasSize(1);

        assertThat(router.unbind("by-region", euPdf("billing"))).isTrue();
        publishHeaders("by-region", "after unbind");
        assertThat(values(billing.receive(10, 0))).as("an unbound headers binding routes nothing").isEmpty();

        router.bind("by-region", euPdf("billing"));
        fx.reopen();
        assertThat(fx.spool.router().unbind("by-region", euPdf("billing"))).as("unbound after a restart").isTrue();
        publishHeaders("by-region", "after restart and unbind");
        fx.reopen();
        assertThat(fx.spool.router().exchange("by-region").bindings()).as("the unbind was kept").isEmpty();
        assertThat(values(fx.spool.subscription("billing").receive(10, 0))).isEmpty();
    }

    /** A fresh, equal match each time: the caller's copy is never the bound one. */
    private static Binding euPdf(final String subscription)
    {
        final Map<String, byte[]> required = new java.util.LinkedHashMap<>();
        required.put("region", "eu".getBytes(StandardCharsets.UTF_8));
        required.put("format", null);
        return Binding.headers(subscription, new HeadersMatch(HeadersMatch.Mode.ALL, required));
    }

    private void publishHeaders(final String exchange, final String value)
    {
        final Map<String, byte[]> headers = Map.of("region", "eu".getBytes(StandardCharsets.UTF_8),
            "format", "pdf".getBytes(StandardCharsets.UTF_8));
        fx.spool.router().publish(exchange, "", null, headers, value.getBytes(StandardCharsets.UTF_8), false).join();
    }

    @Test
    void deletingASubscriptionDropsItsBindings()
    {
        fx.spool.createSubscription("eu", "orders", SubscriptionSettings.DEFAULT);
        fx.spool.router().declare("regions", ExchangeType.DIRECT, null);
        fx.spool.router().bind("regions", Binding.direct("eu", "eu"));
        fx.spool.deleteSubscription("eu");
        assertThat(fx.spool.router().exchange("regions").bindings()).isEmpty();
    }

    @Test
    void badRoutingRequestsGetSpecificErrors()
    {
        final Router router = fx.spool.router();
        router.declare("regions", ExchangeType.DIRECT, null);
        assertThatThrownBy(() -> router.bind("regions", Binding.direct("nobody", "eu")))
            .isInstanceOf(UnknownSubscriptionException.class).hasMessageContaining("nobody");
        assertThatThrownBy(() -> router.bind("nowhere", Binding.direct("nobody", "eu")))
            .isInstanceOf(UnknownExchangeException.class).hasMessageContaining("nowhere");
        assertThatThrownBy(() -> publish("nowhere", "eu", "x", false))
            .isInstanceOf(UnknownExchangeException.class);
        assertThatThrownBy(() -> router.declare("", ExchangeType.DIRECT, null))
            .isInstanceOf(InvalidRequestException.class).hasMessageContaining("non-empty name");
    }
}
