package io.spool.wire.sqs;

import java.nio.file.Path;
import java.util.Objects;

/**
 * The settings of an {@link SqsEndpoint}: where it listens (loopback by default), the token clients must present
 * (none by default), the directory it keeps its queue definitions and receipt-handle key in, and the region and
 * account its queue URLs and ARNs name. Immutable and thread-safe.
 */
public final class SqsConfig
{
    public static final String DEFAULT_HOST = "127.0.0.1";
    /** ElasticMQ's port, so that what was set up for it finds Spool. */
    public static final int DEFAULT_PORT = 9324;
    public static final String DEFAULT_REGION = "us-east-1";
    public static final String DEFAULT_ACCOUNT = "000000000000";
    /** Large enough for a batch of 1 MiB of messages, percent-encoded in a form. */
    public static final int DEFAULT_MAX_REQUEST_BYTES = 4 * 1024 * 1024;

    private final String host;
    private final int port;
    private final String token;
    private final Path directory;
    private final String region;
    private final String account;
    private final int ioThreads;
    private final int maxRequestBytes;

    private SqsConfig(final Builder builder)
    {
        this.host = builder.host;
        this.port = builder.port;
        this.token = builder.token;
        this.directory = builder.directory;
        this.region = builder.region;
        this.account = builder.account;
        this.ioThreads = builder.ioThreads;
        this.maxRequestBytes = builder.maxRequestBytes;
    }

    /** Settings keeping the endpoint's files in {@code directory} (for a server: its data directory's {@code sqs}). */
    public static Builder builder(final Path directory)
    {
        return new Builder(directory);
    }

    public String host()
    {
        return host;
    }

    public int port()
    {
        return port;
    }

    /** The token clients present as their AWS access key id (or as a bearer token), or null when none is needed. */
    public String token()
    {
        return token;
    }

    public Path directory()
    {
        return directory;
    }

    public String region()
    {
        return region;
    }

    public String account()
    {
        return account;
    }

    public int ioThreads()
    {
        return ioThreads;
    }

    public int maxRequestBytes()
    {
        return maxRequestBytes;
    }

    /** Collects settings; {@link #build()} checks them. Not thread-safe. */
    public static final class Builder
    {
        private final Path directory;
        private String host = DEFAULT_HOST;
        private int port = DEFAULT_PORT;
        private String token;
        private String region = DEFAULT_REGION;
        private String account = DEFAULT_ACCOUNT;
        private int ioThreads = 2;
        private int maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES;

        private Builder(final Path directory)
        {
            this.directory = directory;
        }

        public Builder host(final String host)
        {
            this.host = host;
            return this;
        }

        /** 0 picks a free port. */
        public Builder port(final int port)
        {
            this.port = port;
            return this;
        }

        public Builder token(final String token)
        {
            this.token = token;
            return this;
        }

        public Builder region(final String region)
        {
            this.region = region;
            return this;
        }

        public Builder account(final String account)
        {
            this.account = account;
            return this;
        }

        public Builder ioThreads(final int ioThreads)
        {
            this.ioThreads = ioThreads;
            return this;
        }

        public Builder maxRequestBytes(final int maxRequestBytes)
        {
            this.maxRequestBytes = maxRequestBytes;
            return this;
        }

        /**
         * @throws IllegalArgumentException naming the first setting out of range.
         */
        public SqsConfig build()
        {
            Objects.requireNonNull(directory, "the SQS endpoint needs a directory for its queue definitions");
            if (port < 0 || port > 65_535)
            {
                throw new IllegalArgumentException("SQS port must be between 0 and 65535, was " + port);
            }
            if (token != null && token.isEmpty())
            {
                throw new IllegalArgumentException("an SQS token must not be empty; leave it out to need none");
            }
            if (region == null || !region.matches("[a-z0-9-]{1,32}") || account == null ||
                !account.matches("[0-9]{12}"))
            {
                throw new IllegalArgumentException("SQS region must be 1 to 32 of a-z 0-9 - and account 12 digits, " +
                    "were '" + region + "' and '" + account + "'");
            }
            if (ioThreads < 1 || maxRequestBytes < QueueAttributes.MAX_MAXIMUM_MESSAGE_SIZE)
            {
                throw new IllegalArgumentException("SQS needs at least 1 I/O thread and requests of at least " +
                    QueueAttributes.MAX_MAXIMUM_MESSAGE_SIZE + " bytes, were " + ioThreads + " and " +
                    maxRequestBytes);
            }
            return new SqsConfig(this);
        }
    }
}
