/**
 * The routing API: exchanges ({@link io.spool.api.routing.Exchange}, {@link io.spool.api.routing.ExchangeType}),
 * their bindings and header matches, the exchange table the router keeps, and routing's exceptions.
 * <p>
 * API. It uses the queue layer's exceptions and nothing of its internals; the catalog file that stores the exchanges
 * is {@code io.spool.queue.internal.registry}'s. Threading is stated on each type.
 */
package io.spool.queue.routing;
