package io.spool.wire.sqs;

import java.net.URI;
import java.util.regex.Pattern;

/**
 * Queue names, URLs and ARNs. A queue's URL is {@code http://HOST/ACCOUNT/NAME}, with the host the client reached
 * the endpoint by; its ARN is {@code arn:aws:sqs:REGION:ACCOUNT:NAME}. A request names its queue by URL (or by the
 * path it was posted to, in the query protocol); only the last path segment counts, so any host and account reach
 * the same queue. Immutable and thread-safe.
 */
final class QueueNames
{
    static final String FIFO_SUFFIX = ".fifo";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,80}");
    private static final Pattern FIFO_NAME = Pattern.compile("[A-Za-z0-9_-]{1,75}\\.fifo");

    private final String region;
    private final String account;

    QueueNames(final String region, final String account)
    {
        this.region = region;
        this.account = account;
    }

    String account()
    {
        return account;
    }

    static boolean isValid(final String name)
    {
        return name != null && (NAME.matcher(name).matches() || FIFO_NAME.matcher(name).matches());
    }

    /**
     * @throws SqsException when the name is not a valid queue name.
     */
    static String check(final String name)
    {
        if (!isValid(name))
        {
            throw SqsError.INVALID_PARAMETER_VALUE.with("Can only include alphanumeric characters, hyphens, or " +
                "underscores. 1 to 80 in length (a FIFO queue's name ends in .fifo within those 80), was '" + name +
                "'.");
        }
        return name;
    }

    String url(final String host, final String name)
    {
        return "http://" + host + "/" + account + "/" + name;
    }

    String arn(final String name)
    {
        return "arn:aws:sqs:" + region + ":" + account + ":" + name;
    }

    /** The queue name a URL (or a bare name, or a path) names. */
    static String fromUrl(final String url)
    {
        String path = url;
        if (url.contains("://"))
        {
            try
            {
                path = URI.create(url).getPath();
            }
            catch (final IllegalArgumentException ex)
            {
                throw SqsError.QUEUE_DOES_NOT_EXIST.with("The specified queue does not exist: '" + url +
                    "' is not a queue URL.");
            }
        }
        if (path == null)
        {
            return "";
        }
        final int slash = path.lastIndexOf('/');
        return slash < 0 ? path : path.substring(slash + 1);
    }

    /**
     * The queue name an ARN names.
     *
     * @throws SqsException when it is not an SQS queue ARN.
     */
    static String fromArn(final String arn, final String parameter)
    {
        final String[] parts = arn == null ? new String[0] : arn.split(":", -1);
        if (parts.length != 6 || !parts[0].equals("arn") || !parts[2].equals("sqs") || !isValid(parts[5]))
        {
            throw SqsError.INVALID_PARAMETER_VALUE.with("Value " + arn + " for parameter " + parameter +
                " is invalid. Reason: it is not an SQS queue ARN (arn:aws:sqs:REGION:ACCOUNT:NAME).");
        }
        return parts[5];
    }
}
