/**
 * An SQS-compatible HTTP endpoint over a Spool engine ({@code docs/guide/sqs.md}): the AWS JSON 1.0 and query
 * protocols, the queue, message and move-task actions, each queue a Spool subscription of a topic of its name, and
 * receipt handles sealed per queue.
 * <p>
 * API: {@link io.spool.wire.sqs.SqsEndpoint} and {@link io.spool.wire.sqs.SqsConfig}; the rest is the endpoint's
 * machinery. Requests are read on the HTTP connection's Netty event loop and answered from the log's confirms and
 * the subscriptions' receives, so no thread waits on one; the queue catalog and move tasks are thread-safe, as
 * each class says.
 */
package io.spool.wire.sqs;
