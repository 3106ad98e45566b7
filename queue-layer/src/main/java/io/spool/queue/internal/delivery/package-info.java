/**
 * Internal: the threads that deliver. A subscription's agent
 * ({@link io.spool.queue.internal.delivery.SubscriptionAgent}) owns its partitions' state machines and stores and runs
 * the pass: requests from other threads, settlements from the consumers' rings, ended locks and delays, dispatch of
 * ready messages to pushes and receives, and one journal commit per pass. Beside it: each partition's worker that
 * reads the log and writes dead letters, the hand-off ring from the agent to a push consumer's thread, the acks a
 * consumer batches, the overflow check, and the replay of dead letters after a restart.
 * <p>
 * Not API: nothing outside queue-layer uses it. It drives the state machine and the store; the state machine and
 * the store never call back into it. The agent's state is owned by whichever thread holds its pass (the agent's own
 * thread, or a push consumer's); other threads reach it only through its request queue, the settlement rings and
 * the hand-off rings, whose javadoc says which side owns which field.
 */
package io.spool.queue.internal.delivery;
