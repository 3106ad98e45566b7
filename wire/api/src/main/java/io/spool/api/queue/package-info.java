/**
 * Queues as applications see them: {@link io.spool.api.queue.QueueSubscription} (pull and settle),
 * {@link io.spool.api.queue.PushConsumer} with its {@link io.spool.api.queue.MessageListener},
 * {@link io.spool.api.queue.Message} and its {@link io.spool.api.queue.Receipt}, batch outcomes, subscription
 * settings, consumer options, descriptions, metrics, the header names the engine reads, and the queue exceptions.
 * <p>
 * API. Values are immutable; a listener is called on one thread, and settling is safe from any thread.
 */
package io.spool.api.queue;
