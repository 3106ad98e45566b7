package io.spool.wire.sqs;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * Runs an SQS action: finds its queue, hands the work to the part that does it, and completes with the answer.
 * Sends answer from the log's confirm and receives from the subscription (neither holds a thread while it waits);
 * what waits on a subscription's agent or writes files runs on the engine executor, never on an event loop.
 * Thread-safe.
 */
final class SqsActions
{
    private static final int MAX_LISTED = 1000;

    private final Queues queues;
    private final Sender sender;
    private final Receiver receiver;
    private final MessageMoves moves;
    private final Executor engineExecutor;

    SqsActions(final Queues queues, final Sender sender, final Receiver receiver, final MessageMoves moves,
        final Executor engineExecutor)
    {
        this.queues = queues;
        this.sender = sender;
        this.receiver = receiver;
        this.moves = moves;
        this.engineExecutor = engineExecutor;
    }

    /** Where a request came from: the host its queue URLs name, and the queue its path names (query protocol). */
    record Origin(String host, String pathQueue, Executor continuation)
    {
    }

    /**
     * @throws SqsException for an unknown action or a request refused before any work began.
     */
    CompletableFuture<Answer> run(final String action, final Params request, final Origin origin)
    {
        return switch (action)
        {
            case "SendMessage" -> sender.send(queue(request, origin), request, origin.continuation());
            case "SendMessageBatch" -> sender.sendBatch(queue(request, origin), request, origin.continuation());
            case "ReceiveMessage" -> receiver.receive(queue(request, origin), request, origin.continuation());
            case "DeleteMessage" -> onEngine(() -> receiver.delete(queue(request, origin), request));
            case "DeleteMessageBatch" -> onEngine(() -> receiver.deleteBatch(queue(request, origin), request));
            case "ChangeMessageVisibility" -> onEngine(() -> receiver.changeVisibility(queue(request, origin), request));
            case "ChangeMessageVisibilityBatch" ->
                onEngine(() -> receiver.changeVisibilityBatch(queue(request, origin), request));
            case "CreateQueue" -> onEngine(() -> createQueue(request, origin));
            case "GetQueueUrl" -> onEngine(() -> new Answer().put("QueueUrl",
                url(origin, queues.resolve(request.required("QueueName")).name())));
            case "ListQueues" -> onEngine(() -> listQueues(request, origin));
            case "DeleteQueue" -> onEngine(() ->
            {
                queues.delete(queue(request, origin));
                return new Answer();
            });
            case "GetQueueAttributes" -> onEngine(() ->
            {
                final SqsQueue queue = queue(request, origin);
                return new Answer().textMap("Attributes", "Attribute", "Name", "Value", QueueAttributes.describe(
                    queue, request.strings("AttributeNames"), queue.subscription()::metrics, queues.names()));
            });
            case "SetQueueAttributes" -> onEngine(() ->
            {
                final SqsQueue queue = queue(request, origin);
                if (!request.has("Attributes"))
                {
                    throw SqsError.MISSING_PARAMETER.with("The request must contain the parameter Attributes.");
                }
                queues.setAttributes(queue, request.stringMap("Attributes"));
                return new Answer();
            });
            case "PurgeQueue" -> onEngine(() ->
            {
                queues.purge(queue(request, origin));
                return new Answer();
            });
            case "TagQueue" -> onEngine(() ->
            {
                queues.tag(queue(request, origin), request.stringMap("Tags"), List.of());
                return new Answer();
            });
            case "UntagQueue" -> onEngine(() ->
            {
                queues.tag(queue(request, origin), Map.of(), request.strings("TagKeys"));
                return new Answer();
            });
            case "ListQueueTags" -> onEngine(() -> new Answer().textMap("Tags", "Tag", "Key", "Value",
                queue(request, origin).definition().tags()));
            case "ListDeadLetterSourceQueues" -> onEngine(() -> page(queues.deadLetterSources(queue(request, origin)),
                request, origin, "queueUrls"));
            case "StartMessageMoveTask" -> onEngine(() -> moves.start(request));
            case "ListMessageMoveTasks" -> onEngine(() -> moves.list(request));
            case "CancelMessageMoveTask" -> onEngine(() -> moves.cancel(request));
            case "AddPermission", "RemovePermission" -> throw SqsError.UNSUPPORTED_OPERATION.with(action +
                " is not supported: the endpoint checks no permissions (see the token setting).");
            default -> throw SqsError.INVALID_ACTION.with("The action " + action + " is not valid for this endpoint.");
        };
    }

    private CompletableFuture<Answer> onEngine(final Supplier<Answer> work)
    {
        return CompletableFuture.supplyAsync(work, engineExecutor);
    }

    private SqsQueue queue(final Params request, final Origin origin)
    {
        final String url = request.string("QueueUrl");
        if (url == null && (origin.pathQueue() == null || origin.pathQueue().isEmpty()))
        {
            throw SqsError.MISSING_PARAMETER.with("The request must contain the parameter QueueUrl.");
        }
        return queues.resolve(url != null ? QueueNames.fromUrl(url) : origin.pathQueue());
    }

    private String url(final Origin origin, final String name)
    {
        return queues.names().url(origin.host(), name);
    }

    private Answer createQueue(final Params request, final Origin origin)
    {
        final String name = request.required("QueueName");
        final Map<String, String> tags = request.has("tags") ? request.stringMap("tags") : request.stringMap("Tags");
        queues.create(name, request.stringMap("Attributes"), tags);
        return new Answer().put("QueueUrl", url(origin, name));
    }

    private Answer listQueues(final Params request, final Origin origin)
    {
        return page(queues.list(request.string("QueueNamePrefix")), request, origin, "QueueUrls");
    }

    /** A page of queue URLs after NextToken (the last name of the page before), MaxResults long when given. */
    private Answer page(final List<String> names, final Params request, final Origin origin, final String member)
    {
        final long max = request.integer("MaxResults", 1, MAX_LISTED, -1);
        final String token = request.string("NextToken");
        final String after = token == null ? null : decodeToken(token);
        final List<String> urls = new ArrayList<>();
        String last = null;
        boolean more = false;
        for (final String name : names)
        {
            if (after != null && name.compareTo(after) <= 0)
            {
                continue;
            }
            if (urls.size() == (max < 0 ? MAX_LISTED : max))
            {
                more = true;
                break;
            }
            urls.add(url(origin, name));
            last = name;
        }
        final Answer answer = new Answer().texts(member, "QueueUrl", urls);
        return more && max >= 0 ? answer.put("NextToken", Base64.getUrlEncoder().withoutPadding()
            .encodeToString(last.getBytes(StandardCharsets.UTF_8))) : answer;
    }

    private static String decodeToken(final String token)
    {
        try
        {
            return new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
        }
        catch (final IllegalArgumentException ex)
        {
            throw SqsError.INVALID_PARAMETER_VALUE.with("Invalid NextToken value: " + token);
        }
    }
}
