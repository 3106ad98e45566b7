package io.spool.wire.kafka;

import java.nio.file.Path;

/**
 * Settings of a {@link KafkaListener}: where it listens and what it tells clients, the token and TLS it shares with
 * the native listener, and the group and share-group timings Kafka's brokers take from their own configuration.
 * Immutable, thread-safe.
 */
public final class KafkaListenerConfig
{
    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 9092;
    /** Kafka's {@code socket.request.max.bytes}: a larger request closes the connection. */
    public static final int DEFAULT_MAX_REQUEST_BYTES = 100 * 1024 * 1024;

    private final String host;
    private final int port;
    private final String advertisedHost;
    private final int nodeId;
    private final String token;
    private final Path tlsCertificateChain;
    private final Path tlsPrivateKey;
    private final int maxRequestBytes;
    private final boolean autoCreateTopics;
    private final int defaultPartitions;
    private final int minSessionTimeoutMillis;
    private final int maxSessionTimeoutMillis;
    private final int initialRebalanceDelayMillis;
    private final int groupHeartbeatIntervalMillis;
    private final int groupSessionTimeoutMillis;
    private final int ioThreads;
    private final boolean preferNativeTransport;

    private KafkaListenerConfig(final Builder b)
    {
        this.host = b.host;
        this.port = b.port;
        this.advertisedHost = b.advertisedHost;
        this.nodeId = b.nodeId;
        this.token = b.token;
        this.tlsCertificateChain = b.tlsCertificateChain;
        this.tlsPrivateKey = b.tlsPrivateKey;
        this.maxRequestBytes = b.maxRequestBytes;
        this.autoCreateTopics = b.autoCreateTopics;
        this.defaultPartitions = b.defaultPartitions;
        this.minSessionTimeoutMillis = b.minSessionTimeoutMillis;
        this.maxSessionTimeoutMillis = b.maxSessionTimeoutMillis;
        this.initialRebalanceDelayMillis = b.initialRebalanceDelayMillis;
        this.groupHeartbeatIntervalMillis = b.groupHeartbeatIntervalMillis;
        this.groupSessionTimeoutMillis = b.groupSessionTimeoutMillis;
        this.ioThreads = b.ioThreads;
        this.preferNativeTransport = b.preferNativeTransport;
    }

    public static Builder builder()
    {
        return new Builder();
    }

    public String host()
    {
        return host;
    }

    /** 0 picks a free port; {@link KafkaListener#port()} tells which. */
    public int port()
    {
        return port;
    }

    /** The host clients are told to connect to (in Metadata and FindCoordinator); the bound host when not set. */
    public String advertisedHost()
    {
        return advertisedHost == null ? host : advertisedHost;
    }

    public int nodeId()
    {
        return nodeId;
    }

    /** The shared secret a client must present as the password of SASL/PLAIN, or null when none is required. */
    public String token()
    {
        return token;
    }

    public Path tlsCertificateChain()
    {
        return tlsCertificateChain;
    }

    public Path tlsPrivateKey()
    {
        return tlsPrivateKey;
    }

    public int maxRequestBytes()
    {
        return maxRequestBytes;
    }

    /** Kafka's {@code auto.create.topics.enable}: a producer's or a Metadata request's unknown topic is created. */
    public boolean autoCreateTopics()
    {
        return autoCreateTopics;
    }

    /** Kafka's {@code num.partitions}: partitions of an automatically created topic. */
    public int defaultPartitions()
    {
        return defaultPartitions;
    }

    /** Kafka's {@code group.min.session.timeout.ms}. */
    public int minSessionTimeoutMillis()
    {
        return minSessionTimeoutMillis;
    }

    /** Kafka's {@code group.max.session.timeout.ms}. */
    public int maxSessionTimeoutMillis()
    {
        return maxSessionTimeoutMillis;
    }

    /** Kafka's {@code group.initial.rebalance.delay.ms}: how long an empty group waits for more members to join. */
    public int initialRebalanceDelayMillis()
    {
        return initialRebalanceDelayMillis;
    }

    /** Kafka's {@code group.consumer.heartbeat.interval.ms} and {@code group.share.heartbeat.interval.ms}. */
    public int groupHeartbeatIntervalMillis()
    {
        return groupHeartbeatIntervalMillis;
    }

    /** Kafka's {@code group.consumer.session.timeout.ms} and {@code group.share.session.timeout.ms}. */
    public int groupSessionTimeoutMillis()
    {
        return groupSessionTimeoutMillis;
    }

    public int ioThreads()
    {
        return ioThreads;
    }

    public boolean preferNativeTransport()
    {
        return preferNativeTransport;
    }

    /** Collects settings; not thread-safe. */
    public static final class Builder
    {
        private String host = DEFAULT_HOST;
        private int port = DEFAULT_PORT;
        private String advertisedHost;
        private int nodeId;
        private String token;
        private Path tlsCertificateChain;
        private Path tlsPrivateKey;
        private int maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES;
        private boolean autoCreateTopics = true;
        private int defaultPartitions = 1;
        private int minSessionTimeoutMillis = 6_000;
        private int maxSessionTimeoutMillis = 1_800_000;
        private int initialRebalanceDelayMillis = 3_000;
        private int groupHeartbeatIntervalMillis = 5_000;
        private int groupSessionTimeoutMillis = 45_000;
        private int ioThreads = Math.max(1, Runtime.getRuntime().availableProcessors());
        private boolean preferNativeTransport = true;

        private Builder()
        {
        }

        /** The address to bind; 127.0.0.1 unless told otherwise, so the listener is not reachable from outside. */
        public Builder host(final String host)
        {
            this.host = host;
            return this;
        }

        public Builder port(final int port)
        {
            this.port = port;
            return this;
        }

        public Builder advertisedHost(final String advertisedHost)
        {
            this.advertisedHost = advertisedHost;
            return this;
        }

        public Builder nodeId(final int nodeId)
        {
            this.nodeId = nodeId;
            return this;
        }

        public Builder token(final String token)
        {
            this.token = token;
            return this;
        }

        /** Serves TLS only, with this PEM certificate chain and its unencrypted PKCS#8 key, as the native listener. */
        public Builder tls(final Path certificateChain, final Path privateKey)
        {
            this.tlsCertificateChain = certificateChain;
            this.tlsPrivateKey = privateKey;
            return this;
        }

        public Builder maxRequestBytes(final int maxRequestBytes)
        {
            this.maxRequestBytes = maxRequestBytes;
            return this;
        }

        public Builder autoCreateTopics(final boolean autoCreateTopics)
        {
            this.autoCreateTopics = autoCreateTopics;
            return this;
        }

        public Builder defaultPartitions(final int defaultPartitions)
        {
            this.defaultPartitions = defaultPartitions;
            return this;
        }

        public Builder sessionTimeoutBounds(final int minMillis, final int maxMillis)
        {
            this.minSessionTimeoutMillis = minMillis;
            this.maxSessionTimeoutMillis = maxMillis;
            return this;
        }

        public Builder initialRebalanceDelayMillis(final int initialRebalanceDelayMillis)
        {
            this.initialRebalanceDelayMillis = initialRebalanceDelayMillis;
            return this;
        }

        public Builder groupHeartbeatIntervalMillis(final int groupHeartbeatIntervalMillis)
        {
            this.groupHeartbeatIntervalMillis = groupHeartbeatIntervalMillis;
            return this;
        }

        public Builder groupSessionTimeoutMillis(final int groupSessionTimeoutMillis)
        {
            this.groupSessionTimeoutMillis = groupSessionTimeoutMillis;
            return this;
        }

        public Builder ioThreads(final int ioThreads)
        {
            this.ioThreads = ioThreads;
            return this;
        }

        public Builder preferNativeTransport(final boolean preferNativeTransport)
        {
            this.preferNativeTransport = preferNativeTransport;
            return this;
        }

        /** @throws IllegalArgumentException naming the setting out of range. */
        public KafkaListenerConfig build()
        {
            require(host != null && !host.isEmpty(), "host must be set");
            require(port >= 0 && port <= 0xFFFF, "port must be between 0 and 65535, was " + port);
            require(nodeId >= 0, "nodeId must be >= 0, was " + nodeId);
            require(maxRequestBytes >= 1024, "maxRequestBytes must be at least 1024, was " + maxRequestBytes);
            require(defaultPartitions >= 1, "defaultPartitions must be at least 1, was " + defaultPartitions);
            require(minSessionTimeoutMillis >= 1 && minSessionTimeoutMillis <= maxSessionTimeoutMillis,
                "session timeout bounds must be 1 <= min <= max, were " + minSessionTimeoutMillis + " and " +
                maxSessionTimeoutMillis);
            require(initialRebalanceDelayMillis >= 0,
                "initialRebalanceDelayMillis must be >= 0, was " + initialRebalanceDelayMillis);
            require(groupHeartbeatIntervalMillis >= 1 && groupHeartbeatIntervalMillis < groupSessionTimeoutMillis,
                "the group heartbeat interval must be positive and below the group session timeout, were " +
                groupHeartbeatIntervalMillis + " and " + groupSessionTimeoutMillis);
            require(ioThreads >= 1, "ioThreads must be at least 1, was " + ioThreads);
            require((tlsCertificateChain == null) == (tlsPrivateKey == null),
                "TLS needs both a certificate chain and its private key");
            return new KafkaListenerConfig(this);
        }

        private static void require(final boolean condition, final String message)
        {
            if (!condition)
            {
                throw new IllegalArgumentException(message);
            }
        }
    }
}
