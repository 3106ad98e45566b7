package io.spool.api;

import io.spool.api.queue.RedriveResult;
import io.spool.api.queue.SubscriptionDescription;
import io.spool.api.queue.SubscriptionMetrics;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicDescription;

import java.util.List;

/**
 * Topics and subscriptions: create, describe, list, purge, redrive, delete. The same on the embedded engine and
 * through the client; each call is done when it returns.
 */
public interface Admin
{
    /**
     * @throws io.spool.api.stream.TopicExistsException when a topic of that name exists.
     */
    void createTopic(String name, TopicConfig config);

    /**
     * Deletes a topic and its data.
     *
     * @throws InvalidRequestException when a subscription reads it (the embedded engine's {@code TopicInUseException}).
     */
    void deleteTopic(String name);

    /**
     * Changes a live topic's retention limits, the only settings that change after a topic is created; kept across
     * restarts, applied from the next retention pass (a lowered limit deletes the closed segments it now excludes).
     *
     * @param retentionMillis see {@link io.spool.api.log.LogConfig#retentionMillis()}; -1 keeps records forever
     * @param retentionBytes  see {@link io.spool.api.log.LogConfig#retentionBytes()}; -1 is unbounded
     * @throws io.spool.api.stream.UnknownTopicException when there is no such topic.
     * @throws IllegalArgumentException when a limit is out of range.
     */
    void alterTopicRetention(String name, long retentionMillis, long retentionBytes);

    TopicDescription describeTopic(String name);

    List<String> listTopics();

    /** Creates a subscription that reads {@code topic} as a queue. */
    void createSubscription(String name, String topic, SubscriptionSettings settings);

    /** Deletes a subscription, its state and its bindings. */
    void deleteSubscription(String name);

    List<String> listSubscriptions();

    SubscriptionDescription describeSubscription(String name);

    /**
     * Empties a subscription, which goes on from its topic's end; the topic's records stay.
     *
     * @return the subscription's figures just before it was emptied.
     */
    SubscriptionMetrics purgeSubscription(String name);

    /**
     * Moves the messages that died in {@code subscription} back to it, to be delivered again: those at offsets
     * {@code [fromOffset, toOffset)} of each partition of its dead-letter topic.
     */
    RedriveResult redrive(String subscription, long fromOffset, long toOffset);

    /** Per topic partition, subscription and consumer group, and the process; see {@link MetricSample}. */
    List<MetricSample> metrics();
}
