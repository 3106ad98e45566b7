/**
 * The semantics labs of {@code docs/guide/labs.md} ({@code spool lab NAME|all}): each experiment runs on Spool
 * through its public API in virtual time and prints its table beside the figures of RabbitMQ or SQS.
 * <p>
 * Not API. A lab runs on the thread that started it, with the engine's clock moved by hand.
 */
package io.spool.perf.lab;
