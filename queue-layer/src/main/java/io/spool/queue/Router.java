package io.spool.queue;

import io.spool.api.InvalidRequestException;
import io.spool.api.queue.OverflowPolicy;
import io.spool.api.queue.QueueFullException;
import io.spool.api.queue.QueueHeaders;
import io.spool.api.queue.UnknownSubscriptionException;
import io.spool.api.routing.Binding;
import io.spool.api.routing.Exchange;
import io.spool.api.routing.ExchangeType;
import io.spool.api.stream.KeyPartitioner;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.PublishResult;
import io.spool.log.OpenReport;
import io.spool.queue.internal.registry.ExchangeCatalog;
import io.spool.queue.routing.Exchanges;
import io.spool.stream.StreamEngine;
import io.spool.stream.StreamProducer;
import io.spool.stream.TopicRegistry;
import org.agrona.concurrent.EpochClock;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Publishes to topics with the subscriptions' overflow limits in force ({@link #send}, through the
 * {@link PublishGate}), and through exchanges: routes a message once, at publish time, and stores it once per topic
 * with the
 * matched subscriptions named in its {@link QueueHeaders#ROUTED_TO} header, so that each subscription of the
 * topic sees exactly the messages its bindings matched. Declarations and bindings are kept in a durable catalog.
 * Thread-safe: changes are serialised, and publishes share one producer under a lock (publish to topics
 * directly for the highest rates).
 */
public final class Router
{
    private final Exchanges exchanges = new Exchanges();
    private final ExchangeCatalog catalog;
    private final SubscriptionRegistry subscriptions;
    private final StreamProducer producer;
    private final PublishGate gate;
    private final TopicRegistry topics;
    private final Map<String, LongAdder> unroutable = new ConcurrentHashMap<>();

    /**
     * Declares the exchanges and bindings of the catalog file, or of its copy when it is damaged. When both are
     * damaged the router starts with none and sets the files aside; either is in the open report.
     */
    public Router(final Path catalogFile, final SubscriptionRegistry subscriptions, final StreamEngine streams,
        final EpochClock clock)
    {
        this.catalog = new ExchangeCatalog(catalogFile, streams.logStore().fileSync());
        this.subscriptions = subscriptions;
        this.producer = streams.newProducer();
        this.gate = new PublishGate(subscriptions, streams, clock);
        this.topics = streams.topics();
        final OpenReport report = streams.logStore().openReport();
        try
        {
            final String damage = catalog.loadInto(exchanges);
            if (damage != null)
            {
                report.add(OpenReport.Action.RESTORED_FROM_COPY, "exchange catalog " + catalogFile.getFileName(),
                    damage + "; read its copy, nothing lost");
            }
        }
        catch (final CorruptStateException damaged)
        {
            final Path aside = catalog.setAside();
            report.add(OpenReport.Action.QUARANTINED, "exchange catalog " + catalogFile.getFileName(),
                damaged.getMessage() + ", and so is its copy; the engine opened with no exchanges or bindings " +
                    "(declare them again; publishes to topics and subscriptions are not affected); the damaged " +
                    "files are kept as " + aside.getFileName());
        }
    }

    /**
     * Declares an exchange; the same declaration again is a no-op.
     *
     * @throws io.spool.api.routing.InvalidRoutingException if the name exists with another type or alternate.
     */
    public synchronized Exchange declare(final String name, final ExchangeType type, final String alternate)
    {
        if (name == null || name.isEmpty() || type == null)
        {
            throw new InvalidRequestException("an exchange needs a non-empty name and a type, was '" + name +
                "' and " + type);
        }
        final Exchange exchange = exchanges.declare(name, type, alternate);
        catalog.save(exchanges);
        return exchange;
    }

    /**
     * Binds a subscription to an exchange.
     *
     * @throws io.spool.api.routing.UnknownExchangeException if the exchange was never declared.
     * @throws UnknownSubscriptionException                     if the subscription does not exist.
     * @throws io.spool.api.routing.InvalidRoutingException   if the binding does not fit the exchange's type.
     */
    public synchronized void bind(final String exchange, final Binding binding)
    {
        final Exchange target = exchanges.get(exchange);
        subscriptions.get(binding.subscription());
        target.bind(binding);
        catalog.save(exchanges);
    }

    /** @return whether the binding existed. */
    public synchronized boolean unbind(final String exchange, final Binding binding)
    {
        final boolean removed = exchanges.get(exchange).unbind(binding);
        catalog.save(exchanges);
        return removed;
    }

    /** @return whether the exchange existed. */
    public synchronized boolean delete(final String exchange)
    {
        final boolean removed = exchanges.delete(exchange);
        catalog.save(exchanges);
        return removed;
    }

    /** Drops every binding to a subscription being deleted. */
    public synchronized void unbindAll(final String subscription)
    {
        exchanges.unbindAll(subscription);
        catalog.save(exchanges);
    }

    public Exchange exchange(final String name)
    {
        return exchanges.get(name);
    }

    /**
     * The live routing table, to read (list exchanges, preview a route). Change it through this router's methods,
     * which check bindings against the subscriptions and keep them across restarts.
     */
    public Exchanges exchanges()
    {
        return exchanges;
    }

    /**
     * Routes a message and stores it once per topic of the matched subscriptions.
     *
     * @param mandatory when nothing matches, return the message ({@link RouteOutcome.Status#RETURNED}) instead of
     *                  dropping it.
     * @throws io.spool.api.routing.UnknownExchangeException if the exchange was never declared.
     * @throws QueueFullException                              as {@link #send} does, for any matched topic.
     */
    public CompletableFuture<RouteOutcome> publish(final String exchange, final String routingKey, final byte[] key,
        final Map<String, byte[]> headers, final byte[] value, final boolean mandatory)
    {
        final Map<String, byte[]> given = headers == null ? Map.of() : headers;
        final List<String> matched = exchanges.route(exchange, routingKey == null ? "" : routingKey, given)
            .subscriptions();
        if (matched.isEmpty())
        {
            unroutable.computeIfAbsent(exchange, name -> new LongAdder()).increment();
            return CompletableFuture.completedFuture(new RouteOutcome(
                mandatory ? RouteOutcome.Status.RETURNED : RouteOutcome.Status.UNROUTABLE, List.of(), List.of()));
        }
        final Map<String, List<String>> byTopic = new LinkedHashMap<>();
        for (final String subscription : matched)
        {
            byTopic.computeIfAbsent(subscriptions.get(subscription).topic(), t -> new ArrayList<>()).add(subscription);
        }
        for (final String topic : byTopic.keySet())
        {
            gate.admit(new ProducerRecord(topic, ProducerRecord.ANY_PARTITION, key, given, value));
        }
        final List<ProducerRecord> records = new ArrayList<>();
        for (final Map.Entry<String, List<String>> topic : byTopic.entrySet())
        {
            final Map<String, byte[]> routed = new LinkedHashMap<>(given);
            routed.put(QueueHeaders.ROUTED_TO, String.join(",", topic.getValue()).getBytes(StandardCharsets.UTF_8));
            routed.put(QueueHeaders.EXCHANGE, exchange.getBytes(StandardCharsets.UTF_8));
            if (routingKey != null)
            {
                routed.put(QueueHeaders.ROUTING_KEY, routingKey.getBytes(StandardCharsets.UTF_8));
            }
            records.add(placedByGroup(new ProducerRecord(topic.getKey(), ProducerRecord.ANY_PARTITION, key, routed,
                value)));
        }
        final CompletableFuture<List<PublishResult>> stored;
        synchronized (producer)
        {
            stored = producer.sendBatch(records);
        }
        return stored.thenApply(results -> new RouteOutcome(RouteOutcome.Status.ROUTED, matched, results));
    }

    /**
     * Publishes a record to its topic, unless a subscription of the topic is full under a reject policy.
     *
     * @throws QueueFullException when a subscription refuses it: nothing was stored, and under
     *                            {@link OverflowPolicy#REJECT_PUBLISH_DLX} the record went to that subscription's
     *                            dead-letter topic (reason {@code maxlen}).
     */
    public CompletableFuture<PublishResult> send(final ProducerRecord record)
    {
        final ProducerRecord placed = placedByGroup(record);
        gate.admit(placed);
        synchronized (producer)
        {
            return producer.send(placed);
        }
    }

    /**
     * The record, sent to the partition its {@link QueueHeaders#GROUP_ID} hashes to when it names a message group
     * but neither a partition nor a key, as a key would place it: ordered groups are kept per partition, so a group
     * spread round-robin would have a message in flight in each partition. A keyed record goes by its key, and a
     * dedup id does not move a grouped record (a repeat carries the same group and meets the first).
     *
     * @throws io.spool.api.stream.UnknownTopicException if the record's topic does not exist.
     */
    public ProducerRecord placedByGroup(final ProducerRecord record)
    {
        final byte[] group = record.headers() == null ? null : record.headers().get(QueueHeaders.GROUP_ID);
        if (group == null || record.key() != null || record.partition() != ProducerRecord.ANY_PARTITION)
        {
            return record;
        }
        return new ProducerRecord(record.topic(), KeyPartitioner.partitionForKey(group,
            topics.topic(record.topic()).partitionCount()), record.timestamp(), null, record.headers(), record.value());
    }

    /** The publish admission every publisher of the engine asks ({@link PublishGate}). */
    public PublishGate gate()
    {
        return gate;
    }

    /** Messages published through {@code exchange} that matched nothing, returned or dropped. */
    public long unroutableCount(final String exchange)
    {
        final LongAdder count = unroutable.get(exchange);
        return count == null ? 0 : count.sum();
    }
}
