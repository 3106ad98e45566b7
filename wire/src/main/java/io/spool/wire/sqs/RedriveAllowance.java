package io.spool.wire.sqs;

import java.util.List;

/**
 * A dead-letter queue's RedriveAllowPolicy: which source queues may name it in their redrive policy (allowAll,
 * denyAll, or byQueue with up to 10 source ARNs). Immutable and thread-safe.
 */
record RedriveAllowance(String permission, List<String> sourceQueues)
{
    private static final int MAX_SOURCES = 10;

    /**
     * @throws SqsException when the policy is not one SQS accepts.
     */
    static RedriveAllowance parse(final String policy)
    {
        final Params params;
        try
        {
            params = Params.of(Json.parse(policy), QueueAttributes.REDRIVE_ALLOW_POLICY);
        }
        catch (final SqsException ex)
        {
            throw QueueAttributes.invalidValue(QueueAttributes.REDRIVE_ALLOW_POLICY, policy, "it is not a JSON object");
        }
        final String permission = params.string("redrivePermission");
        final List<String> sources = params.strings("sourceQueueArns");
        final boolean byQueue = "byQueue".equals(permission);
        if (!"allowAll".equals(permission) && !"denyAll".equals(permission) && !byQueue)
        {
            throw QueueAttributes.invalidValue(QueueAttributes.REDRIVE_ALLOW_POLICY, policy,
                "redrivePermission must be allowAll, denyAll or byQueue");
        }
        if (byQueue != !sources.isEmpty() || sources.size() > MAX_SOURCES)
        {
            throw QueueAttributes.invalidValue(QueueAttributes.REDRIVE_ALLOW_POLICY, policy,
                "sourceQueueArns (1 to " + MAX_SOURCES + ") go with byQueue, and only with it");
        }
        final List<String> names = sources.stream()
            .map(arn -> QueueNames.fromArn(arn, QueueAttributes.REDRIVE_ALLOW_POLICY)).toList();
        return new RedriveAllowance(permission, names);
    }

    boolean allows(final String sourceQueue)
    {
        return permission.equals("allowAll") || permission.equals("byQueue") && sourceQueues.contains(sourceQueue);
    }
}
