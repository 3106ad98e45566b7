/**
 * The queue layer's API: what the modules above and applications use. {@link io.spool.queue.Subscription} with its
 * pull receives and push {@link io.spool.queue.QueueConsumer}s, {@link io.spool.queue.Delivery} and
 * {@link io.spool.api.queue.Receipt}, the router and publish gate, redrive, and the settings, options, descriptions,
 * metrics, enums and exceptions they take and give.
 * <p>
 * API. Its engine classes are built from the {@code io.spool.queue.internal} subpackages, and no public member exposes
 * an internal type except the two that {@code QueueLayerArchitectureTest} names. Threading is stated on each type.
 */
package io.spool.queue;
