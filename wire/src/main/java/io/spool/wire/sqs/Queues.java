package io.spool.wire.sqs;

import io.spool.Spool;
import io.spool.api.log.LogConfig;
import io.spool.api.queue.GroupKeySource;
import io.spool.api.queue.GroupMode;
import io.spool.api.queue.RetentionMode;
import io.spool.api.queue.StartPosition;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.queue.UnknownSubscriptionException;
import io.spool.api.stream.TopicConfig;
import io.spool.queue.Subscription;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The queues the endpoint serves: every subscription whose name is a valid SQS queue name is one. CreateQueue makes
 * a topic of the queue's name with one partition and a subscription of that name on it, or, when a topic of that
 * name exists already, a subscription on it that starts at its end (a queue over an existing stream); DeleteQueue
 * deletes the subscription, and the topic when the queue made it and nothing else reads it. Changes are serialised;
 * lookups take no lock. Thread-safe.
 */
final class Queues
{
    /** Segments of a queue's topic: small, as queues are many and short-lived; records up to 1 MiB and headers. */
    private static final int SEGMENT_BYTES = 16 * 1024 * 1024;
    private static final int MAX_RECORD_BYTES = QueueAttributes.MAX_MAXIMUM_MESSAGE_SIZE + 128 * 1024;
    private static final int MAX_TAGS = 50;

    private final Spool spool;
    private final QueueCatalog catalog;
    private final QueueNames names;

    Queues(final Spool spool, final QueueCatalog catalog, final QueueNames names)
    {
        this.spool = spool;
        this.catalog = catalog;
        this.names = names;
        forgetUnfinishedCreates();
    }

    QueueNames names()
    {
        return names;
    }

    /**
     * A definition without its subscription is a CreateQueue a crash cut short (the definition is written first):
     * it never answered, so it is undone, with the topic it made if nothing else reads it.
     */
    private synchronized void forgetUnfinishedCreates()
    {
        for (final QueueDefinition definition : toList(catalog.all()))
        {
            if (!spool.subscriptions().contains(definition.name()))
            {
                catalog.remove(definition.name());
                deleteTopicIfUnread(definition);
            }
        }
    }

    private static List<QueueDefinition> toList(final Iterable<QueueDefinition> definitions)
    {
        final List<QueueDefinition> out = new ArrayList<>();
        definitions.forEach(out::add);
        return out;
    }

    private void deleteTopicIfUnread(final QueueDefinition definition)
    {
        if (definition.ownsTopic() && spool.streams().topics().topicOrNull(definition.name()) != null &&
            spool.subscriptions().stream().noneMatch(s -> spool.subscription(s).topic().equals(definition.name())))
        {
            spool.streams().deleteTopic(definition.name());
        }
    }

    /**
     * @throws SqsException ({@link SqsError#QUEUE_DOES_NOT_EXIST}) when no queue has that name.
     */
    SqsQueue resolve(final String name)
    {
        if (!QueueNames.isValid(name))
        {
            throw doesNotExist(name);
        }
        final Subscription subscription;
        try
        {
            subscription = spool.subscription(name);
        }
        catch (final UnknownSubscriptionException ex)
        {
            throw doesNotExist(name);
        }
        final QueueDefinition definition = catalog.get(name);
        return new SqsQueue(name, subscription, definition != null ? definition : QueueDefinition.adopted(name,
            name.endsWith(QueueNames.FIFO_SUFFIX) && subscription.settings().groupMode() == GroupMode.ORDERED));
    }

    static SqsException doesNotExist(final String name)
    {
        return SqsError.QUEUE_DOES_NOT_EXIST.with("The specified queue does not exist: " + name + ".");
    }

    /** The names of the queues, in order, that start with {@code prefix}. */
    List<String> list(final String prefix)
    {
        final List<String> out = new ArrayList<>();
        for (final String name : spool.subscriptions())
        {
            if (QueueNames.isValid(name) && (prefix == null || name.startsWith(prefix)))
            {
                out.add(name);
            }
        }
        return out;
    }

    /**
     * CreateQueue: makes the queue, or answers for the one of that name when it has the same attributes.
     *
     * @throws SqsException when an attribute is not valid or differs from the existing queue's.
     */
    synchronized void create(final String name, final Map<String, String> attributes, final Map<String, String> tags)
    {
        QueueNames.check(name);
        final boolean fifo = name.endsWith(QueueNames.FIFO_SUFFIX);
        final QueueAttributes.Changes changes = QueueAttributes.check(attributes, fifo, true);
        if (spool.subscriptions().contains(name))
        {
            checkSame(resolve(name), changes);
            return;
        }
        checkTags(tags);
        final String deadLetterTopic = changes.redrive() == null ? null : deadLetterTopic(name, fifo,
            changes.redrive());
        final Map<String, String> kept = new LinkedHashMap<>(changes.kept());
        kept.values().removeIf(value -> value == null);
        if (changes.redrive() != null)
        {
            kept.put(QueueAttributes.DEAD_LETTER_QUEUE, changes.redrive().deadLetterQueue());
        }
        final boolean topicExists = spool.streams().topics().topicOrNull(name) != null;
        final long now = nowSeconds();
        final QueueDefinition definition = new QueueDefinition(name, fifo, now, now,
            ThreadLocalRandom.current().nextLong(), !topicExists, kept, tags);
        catalog.put(definition);
        if (!topicExists)
        {
            spool.createTopic(name, new TopicConfig(1, LogConfig.builder().segmentBytes(SEGMENT_BYTES)
                .maxRecordBytes(MAX_RECORD_BYTES).retentionMillis(retentionSeconds(kept) * 1000L).build()));
        }
        final SubscriptionSettings.Builder settings = SubscriptionSettings.builder()
            .lockTimeoutMillis(changes.visibilityMillis() != null ? changes.visibilityMillis() :
                QueueAttributes.DEFAULT_VISIBILITY_TIMEOUT * 1000L)
            .retentionMode(RetentionMode.WORK_QUEUE)
            .startPosition(topicExists ? StartPosition.latest() : StartPosition.earliest())
            .messageGroups(fifo ? GroupMode.ORDERED : GroupMode.NONE, GroupKeySource.HEADER);
        redrive(settings, changes.redrive(), deadLetterTopic);
        spool.createSubscription(name, name, settings.build());
    }

    private static long retentionSeconds(final Map<String, String> kept)
    {
        final String retention = kept.get(QueueAttributes.MESSAGE_RETENTION_PERIOD);
        return retention == null ? QueueAttributes.DEFAULT_RETENTION_PERIOD : Long.parseLong(retention);
    }

    private static void redrive(final SubscriptionSettings.Builder settings, final QueueAttributes.Redrive redrive,
        final String deadLetterTopic)
    {
        if (redrive == null || redrive == QueueAttributes.Redrive.NONE)
        {
            settings.deliveryLimit(SubscriptionSettings.UNLIMITED_DELIVERIES).deadLetterTopic(null);
        }
        else
        {
            settings.deliveryLimit(redrive.maxReceiveCount() - 1).deadLetterTopic(deadLetterTopic);
        }
    }

    /** The topic of the redrive policy's dead-letter queue, once it is found fit for {@code source}. */
    private String deadLetterTopic(final String source, final boolean fifo, final QueueAttributes.Redrive redrive)
    {
        if (redrive == QueueAttributes.Redrive.NONE)
        {
            return null;
        }
        final String target = redrive.deadLetterQueue();
        if (target.equals(source))
        {
            throw QueueAttributes.invalidValue(QueueAttributes.REDRIVE_POLICY, target,
                "a queue cannot be its own dead-letter queue");
        }
        final SqsQueue deadLetters;
        try
        {
            deadLetters = resolve(target);
        }
        catch (final SqsException ex)
        {
            throw QueueAttributes.invalidValue(QueueAttributes.REDRIVE_POLICY, target,
                "Dead letter target does not exist");
        }
        if (deadLetters.fifo() != fifo)
        {
            throw QueueAttributes.invalidValue(QueueAttributes.REDRIVE_POLICY, target,
                "the dead-letter queue of a " + (fifo ? "FIFO" : "standard") + " queue must be one too");
        }
        final String allowance = deadLetters.definition().attributes().get(QueueAttributes.REDRIVE_ALLOW_POLICY);
        if (allowance != null && !RedriveAllowance.parse(allowance).allows(source))
        {
            throw QueueAttributes.invalidValue(QueueAttributes.REDRIVE_POLICY, target,
                "the RedriveAllowPolicy of " + target + " does not allow " + source + " to use it");
        }
        return deadLetters.topic();
    }

    private void checkSame(final SqsQueue queue, final QueueAttributes.Changes changes)
    {
        for (final Map.Entry<String, String> attribute : changes.kept().entrySet())
        {
            if (!QueueAttributes.sameAs(attribute.getKey(), attribute.getValue(), queue.definition()))
            {
                throw nameExists(attribute.getKey());
            }
        }
        final SubscriptionSettings settings = queue.subscription().settings();
        if (changes.visibilityMillis() != null && changes.visibilityMillis() != settings.lockTimeoutMillis())
        {
            throw nameExists(QueueAttributes.VISIBILITY_TIMEOUT);
        }
        final QueueAttributes.Redrive redrive = changes.redrive();
        if (redrive != null && (redrive == QueueAttributes.Redrive.NONE ? settings.deadLetterTopic() != null :
            settings.deliveryLimit() != redrive.maxReceiveCount() - 1 ||
            !redrive.deadLetterQueue().equals(queue.definition().attributes().getOrDefault(
                QueueAttributes.DEAD_LETTER_QUEUE, settings.deadLetterTopic()))))
        {
            throw nameExists(QueueAttributes.REDRIVE_POLICY);
        }
    }

    private static SqsException nameExists(final String attribute)
    {
        return SqsError.QUEUE_NAME_EXISTS.with("A queue already exists with the same name and a different value " +
            "for attribute " + attribute + ".");
    }

    /** SetQueueAttributes. */
    synchronized void setAttributes(final SqsQueue queue, final Map<String, String> attributes)
    {
        final QueueAttributes.Changes changes = QueueAttributes.check(attributes, queue.fifo(), false);
        final Map<String, String> kept = new LinkedHashMap<>(changes.kept());
        if (changes.visibilityMillis() != null || changes.redrive() != null)
        {
            final SubscriptionSettings.Builder settings = queue.subscription().settings().toBuilder();
            if (changes.visibilityMillis() != null)
            {
                settings.lockTimeoutMillis(changes.visibilityMillis());
            }
            if (changes.redrive() != null)
            {
                redrive(settings, changes.redrive(), deadLetterTopic(queue.name(), queue.fifo(), changes.redrive()));
                kept.put(QueueAttributes.DEAD_LETTER_QUEUE, changes.redrive().deadLetterQueue());
            }
            spool.updateSubscription(queue.name(), settings.build());
        }
        catalog.put(queue.definition().withAttributes(kept, nowSeconds()));
    }

    /** DeleteQueue. */
    synchronized void delete(final SqsQueue queue)
    {
        spool.deleteSubscription(queue.name());
        catalog.remove(queue.name());
        deleteTopicIfUnread(queue.definition());
    }

    /** PurgeQueue: the subscription is emptied, and a new incarnation refuses the older receipt handles. */
    synchronized void purge(final SqsQueue queue)
    {
        catalog.put(queue.definition().withIncarnation(queue.definition().incarnation() + 1));
        spool.purgeSubscription(queue.name());
    }

    /** TagQueue and UntagQueue: the queue's tags, {@code added} put and {@code removed} taken away. */
    synchronized void tag(final SqsQueue queue, final Map<String, String> added, final List<String> removed)
    {
        final Map<String, String> tags = new LinkedHashMap<>(queue.definition().tags());
        tags.putAll(added);
        removed.forEach(tags::remove);
        checkTags(tags);
        catalog.put(queue.definition().withTags(tags));
    }

    private static void checkTags(final Map<String, String> tags)
    {
        if (tags.size() > MAX_TAGS)
        {
            throw SqsError.INVALID_PARAMETER_VALUE.with("Too many tags: a queue holds at most " + MAX_TAGS + ".");
        }
        for (final Map.Entry<String, String> tag : tags.entrySet())
        {
            if (tag.getKey().isEmpty() || tag.getKey().length() > 128 || tag.getValue() == null ||
                tag.getValue().length() > 256)
            {
                throw SqsError.INVALID_PARAMETER_VALUE.with("Tag '" + tag.getKey() + "' is invalid: keys are 1 to " +
                    "128 characters, values at most 256.");
            }
        }
    }

    /** ListDeadLetterSourceQueues: the queues whose redrive policy names this one. */
    List<String> deadLetterSources(final SqsQueue queue)
    {
        final List<String> out = new ArrayList<>();
        for (final String name : list(null))
        {
            final SqsQueue source;
            try
            {
                source = resolve(name);
            }
            catch (final SqsException gone)
            {
                continue;
            }
            final SubscriptionSettings settings = source.subscription().settings();
            if (queue.topic().equals(settings.deadLetterTopic()) && queue.name().equals(
                source.definition().attributes().getOrDefault(QueueAttributes.DEAD_LETTER_QUEUE, queue.topic())))
            {
                out.add(name);
            }
        }
        return out;
    }

    private long nowSeconds()
    {
        return spool.streams().clock().time() / 1000;
    }
}
