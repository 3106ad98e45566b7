package io.spool.queue.routing;

import io.spool.api.routing.Binding;
import io.spool.api.routing.Exchange;
import io.spool.api.routing.ExchangeType;
import io.spool.api.routing.HeadersMatch;
import io.spool.api.routing.InvalidRoutingException;
import io.spool.api.routing.TopicPattern;
import io.spool.api.routing.UnknownExchangeException;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RoutingTest
{
    @Test
    void topicPatternsFollowAmqpWordRules()
    {
        final TopicPattern created = TopicPattern.compile("order.*.created");
        assertThat(created.matches("order.eu.created")).isTrue();
        assertThat(created.matches("order.created")).isFalse();
        assertThat(created.matches("order.eu.west.created")).isFalse();

        final TopicPattern audit = TopicPattern.compile("audit.#");
        assertThat(audit.matches("audit")).isTrue();
        assertThat(audit.matches("audit.a.b.c")).isTrue();
        assertThat(audit.matches("auditx.a")).isFalse();

        final TopicPattern middle = TopicPattern.compile("a.#.z");
        assertThat(middle.matches("a.z")).isTrue();
        assertThat(middle.matches("a.b.c.z")).isTrue();
        assertThat(middle.matches("a.b.c")).isFalse();

        assertThat(TopicPattern.compile("#").matches("")).isTrue();
        assertThat(TopicPattern.compile("#").matches("anything.at.all")).isTrue();
        assertThat(TopicPattern.compile("*").matches("")).isFalse();
        assertThat(TopicPattern.compile("a..b").matches("a..b")).isTrue();
    }

    @Test
    void aWildcardGluedToAWordIsRefused()
    {
        assertThatThrownBy(() -> TopicPattern.compile("order.eu*"))
            .isInstanceOf(InvalidRoutingException.class)
            .hasMessageContaining("'*' and '#' must stand alone");
    }

    /** The in-place matcher agrees with plain word-list matching on random patterns and keys. */
    @Property(tries = 300)
    void topicMatchingAgreesWithARegexTranslation(
        @ForAll("words") final List<String> patternWords, @ForAll("keys") final List<String> keyWords)
    {
        final String pattern = String.join(".", patternWords);
        final String key = String.join(".", keyWords);
        assertThat(TopicPattern.compile(pattern).matches(key)).as("%s ~ %s", pattern, key)
            .isEqualTo(reference(patternWords, keyWords));
    }

    @net.jqwik.api.Provide
    net.jqwik.api.Arbitrary<List<String>> words()
    {
        return net.jqwik.api.Arbitraries.of("a", "b", "*", "#").list().ofMinSize(1).ofMaxSize(5);
    }

    @net.jqwik.api.Provide
    net.jqwik.api.Arbitrary<List<String>> keys()
    {
        return net.jqwik.api.Arbitraries.of("a", "b", "c").list().ofMinSize(1).ofMaxSize(6);
    }

    /** Word-list matching written the plain way, as the reference. */
    private static boolean reference(final List<String> pattern, final List<String> key)
    {
        if (pattern.isEmpty())
        {
            return key.isEmpty();
        }
        final String word = pattern.get(0);
        final List<String> rest = pattern.subList(1, pattern.size());
        if (word.equals("#"))
        {
            for (int skip = 0; skip <= key.size(); skip++)
            {
                if (reference(rest, key.subList(skip, key.size())))
                {
                    return true;
                }
            }
            return false;
        }
        return !key.isEmpty() && (word.equals("*") || word.equals(key.get(0))) &&
            reference(rest, key.subList(1, key.size()));
    }

    @Test
    void directExchangeRoutesByExactKey()
    {
        final Exchange ex = new Exchange("orders", ExchangeType.DIRECT, null);
        ex.bind(Binding.direct("billing", "order.created"));
        ex.bind(Binding.direct("shipping", "order.created"));
        ex.bind(Binding.direct("audit", "order.cancelled"));
        assertThat(route(ex, "order.created", Map.of())).containsExactly("billing", "shipping");
        assertThat(route(ex, "order.cancelled", Map.of())).containsExactly("audit");
        assertThat(route(ex, "order", Map.of())).isEmpty();
    }

    @Test
    void fanoutReachesEverySubscriptionOnce()
    {
        final Exchange ex = new Exchange("events", ExchangeType.FANOUT, null);
        ex.bind(Binding.fanout("email"));
        ex.bind(Binding.fanout("stats"));
        ex.bind(Binding.fanout("email"));
        assertThat(route(ex, "whatever", Map.of())).containsExactly("email", "stats");
    }

    @Test
    void headersExchangeMatchesAllOrAny()
    {
        final Exchange ex = new Exchange("h", ExchangeType.HEADERS, null);
        ex.bind(Binding.headers("pdf-eu", new HeadersMatch(HeadersMatch.Mode.ALL,
            Map.of("format", "pdf".getBytes(), "region", "eu".getBytes()))));
        ex.bind(Binding.headers("pdf-or-eu", new HeadersMatch(HeadersMatch.Mode.ANY,
            Map.of("format", "pdf".getBytes(), "region", "eu".getBytes()))));
        assertThat(route(ex, "", Map.of("format", "pdf".getBytes(), "region", "eu".getBytes())))
            .containsExactlyInAnyOrder("pdf-eu", "pdf-or-eu");
        assertThat(route(ex, "", Map.of("format", "pdf".getBytes()))).containsExactly("pdf-or-eu");
        assertThat(route(ex, "", Map.of("format", "doc".getBytes()))).isEmpty();
    }

    @Test
    void headersMatchesAreEqualByModeAndHeaderValuesInAnyOrder()
    {
        final java.util.LinkedHashMap<String, byte[]> formatFirst = new java.util.LinkedHashMap<>();
        formatFirst.put("format", "pdf".getBytes());
        formatFirst.put("region", null);
        final java.util.LinkedHashMap<String, byte[]> regionFirst = new java.util.LinkedHashMap<>();
        regionFirst.put("region", null);
        regionFirst.put("format", "pdf".getBytes());
        final HeadersMatch match = new HeadersMatch(HeadersMatch.Mode.ALL, formatFirst);

        assertThat(new HeadersMatch(HeadersMatch.Mode.ALL, regionFirst)).isEqualTo(match).hasSameHashCodeAs(match);
        assertThat(new HeadersMatch(HeadersMatch.Mode.ANY, regionFirst)).isNotEqualTo(match);
        assertThat(new HeadersMatch(HeadersMatch.Mode.ALL, Map.of("format", "pdf".getBytes(), "region", new byte[0])))
            .as("an empty value is a value, not 'present'").isNotEqualTo(match);
        assertThat(new HeadersMatch(HeadersMatch.Mode.ALL, Map.of("format", "doc".getBytes()))).isNotEqualTo(match);
        final Exchange ex = new Exchange("h", ExchangeType.HEADERS, null);
        ex.bind(Binding.headers("pdf", match));
        ex.bind(Binding.headers("pdf", new HeadersMatch(HeadersMatch.Mode.ALL, regionFirst)));
        assertThat(ex.bindings()).hasSize(1);
        assertThat(ex.unbind(Binding.headers("pdf", new HeadersMatch(HeadersMatch.Mode.ALL, regionFirst)))).isTrue();
        assertThat(ex.bindings()).isEmpty();
    }

    @Test
    void bindingsMustFitTheExchangeType()
    {
        final Exchange ex = new Exchange("t", ExchangeType.TOPIC, null);
        assertThatThrownBy(() -> ex.bind(Binding.direct("s", "k")))
            .isInstanceOf(InvalidRoutingException.class).hasMessageContaining("does not fit TOPIC exchange t");
    }

    @Test
    void unroutableMessagesFallToTheAlternateExchange()
    {
        final Exchanges exchanges = new Exchanges();
        exchanges.declare("main", ExchangeType.DIRECT, "unrouted");
        exchanges.declare("unrouted", ExchangeType.FANOUT, null);
        exchanges.get("main").bind(Binding.direct("orders", "order"));
        exchanges.get("unrouted").bind(Binding.fanout("lost-and-found"));

        assertThat(exchanges.route("main", "order", Map.of()).subscriptions()).containsExactly("orders");
        final Exchanges.RouteResult fallback = exchanges.route("main", "nope", Map.of());
        assertThat(fallback.subscriptions()).containsExactly("lost-and-found");
        assertThat(fallback.viaAlternate()).isTrue();
    }

    @Test
    void alternateCyclesAndMissingAlternatesEndAsUnroutable()
    {
        final Exchanges exchanges = new Exchanges();
        exchanges.declare("a", ExchangeType.DIRECT, "b");
        exchanges.declare("b", ExchangeType.DIRECT, "a");
        exchanges.declare("c", ExchangeType.DIRECT, "missing");
        assertThat(exchanges.route("a", "k", Map.of()).isUnroutable()).isTrue();
        assertThat(exchanges.route("c", "k", Map.of()).isUnroutable()).isTrue();
        assertThatThrownBy(() -> exchanges.route("nope", "k", Map.of()))
            .isInstanceOf(UnknownExchangeException.class).hasMessageContaining("exchange 'nope' does not exist");
    }

    @Test
    void redeclaringWithAnotherTypeIsRefused()
    {
        final Exchanges exchanges = new Exchanges();
        exchanges.declare("x", ExchangeType.DIRECT, null);
        assertThat(exchanges.declare("x", ExchangeType.DIRECT, null)).isSameAs(exchanges.get("x"));
        assertThatThrownBy(() -> exchanges.declare("x", ExchangeType.TOPIC, null))
            .isInstanceOf(InvalidRoutingException.class).hasMessageContaining("already exists as DIRECT");
    }

    private static List<String> route(final Exchange ex, final String key, final Map<String, byte[]> headers)
    {
        final List<String> out = new ArrayList<>();
        ex.route(key, headers, out);
        return out;
    }
}
