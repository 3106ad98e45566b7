/**
 * Exchanges and bindings as applications declare them: exchange types, topic patterns, header matches, and the
 * routing exceptions.
 * <p>
 * API. Values are immutable and thread-safe.
 */
package io.spool.api.routing;
