package io.spool.wire.sqs;

/**
 * The errors the SQS endpoint answers with, each under the names SQS gives it: the shape name that the JSON
 * protocol's {@code __type} carries (and the AWS SDKs turn into an exception class), the code the query protocol's
 * {@code <Code>} and the JSON protocol's {@code x-amzn-query-error} header carry, and the HTTP status. Immutable.
 */
enum SqsError
{
    QUEUE_DOES_NOT_EXIST("QueueDoesNotExist", "AWS.SimpleQueueService.NonExistentQueue", 400),
    QUEUE_NAME_EXISTS("QueueNameExists", "QueueAlreadyExists", 400),
    INVALID_ATTRIBUTE_NAME("InvalidAttributeName", "InvalidAttributeName", 400),
    INVALID_ATTRIBUTE_VALUE("InvalidAttributeValue", "InvalidAttributeValue", 400),
    INVALID_PARAMETER_VALUE("InvalidParameterValue", "InvalidParameterValue", 400),
    MISSING_PARAMETER("MissingParameter", "MissingParameter", 400),
    INVALID_ACTION("InvalidAction", "InvalidAction", 400),
    MISSING_ACTION("MissingAction", "MissingAction", 400),
    /** A body that is not JSON (or a form that cannot be decoded): what SQS's JSON protocol calls it. */
    MALFORMED_REQUEST("SerializationException", "MalformedQueryString", 400),
    RECEIPT_HANDLE_IS_INVALID("ReceiptHandleIsInvalid", "ReceiptHandleIsInvalid", 400),
    MESSAGE_NOT_INFLIGHT("MessageNotInflight", "AWS.SimpleQueueService.MessageNotInflight", 400),
    INVALID_MESSAGE_CONTENTS("InvalidMessageContents", "InvalidMessageContents", 400),
    BATCH_ENTRY_IDS_NOT_DISTINCT("BatchEntryIdsNotDistinct", "AWS.SimpleQueueService.BatchEntryIdsNotDistinct", 400),
    TOO_MANY_ENTRIES_IN_BATCH_REQUEST("TooManyEntriesInBatchRequest",
        "AWS.SimpleQueueService.TooManyEntriesInBatchRequest", 400),
    EMPTY_BATCH_REQUEST("EmptyBatchRequest", "AWS.SimpleQueueService.EmptyBatchRequest", 400),
    INVALID_BATCH_ENTRY_ID("InvalidBatchEntryId", "AWS.SimpleQueueService.InvalidBatchEntryId", 400),
    BATCH_REQUEST_TOO_LONG("BatchRequestTooLong", "AWS.SimpleQueueService.BatchRequestTooLong", 400),
    UNSUPPORTED_OPERATION("UnsupportedOperation", "AWS.SimpleQueueService.UnsupportedOperation", 400),
    RESOURCE_NOT_FOUND("ResourceNotFoundException", "ResourceNotFoundException", 404),
    OVER_LIMIT("OverLimit", "OverLimit", 403),
    MISSING_AUTHENTICATION_TOKEN("MissingAuthenticationToken", "MissingAuthenticationToken", 403),
    INVALID_CLIENT_TOKEN_ID("InvalidClientTokenId", "InvalidClientTokenId", 403),
    REQUEST_TOO_LARGE("RequestEntityTooLarge", "RequestEntityTooLarge", 413),
    SERVICE_UNAVAILABLE("ServiceUnavailable", "ServiceUnavailable", 503),
    INTERNAL_FAILURE("InternalFailure", "InternalFailure", 500);

    private static final String JSON_TYPE_PREFIX = "com.amazonaws.sqs#";

    private final String shape;
    private final String queryCode;
    private final int status;

    SqsError(final String shape, final String queryCode, final int status)
    {
        this.shape = shape;
        this.queryCode = queryCode;
        this.status = status;
    }

    /** The JSON protocol's {@code __type}. */
    String jsonType()
    {
        return JSON_TYPE_PREFIX + shape;
    }

    /** The query protocol's code, also the JSON protocol's {@code x-amzn-query-error} and a batch entry's Code. */
    String queryCode()
    {
        return queryCode;
    }

    int status()
    {
        return status;
    }

    /** Sender for the caller's mistakes, Receiver for the server's. */
    String fault()
    {
        return status >= 500 ? "Receiver" : "Sender";
    }

    SqsException with(final String message)
    {
        return new SqsException(this, message);
    }
}
