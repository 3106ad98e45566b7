package io.spool.wire.server;

import io.spool.wire.FrameDescriptor;

import java.nio.file.Path;

/**
 * Settings of a {@link SpoolServer}: where it listens, the shared secret, and the limits that keep one client from
 * hurting the others. Immutable, thread-safe.
 */
public final class ServerConfig
{
    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 7420;
    public static final int DEFAULT_MAX_FRAME_LENGTH = 16 * 1024 * 1024;
    /** A frame is held whole in memory while it is handled; this bounds what one connection can make it hold. */
    public static final int MAX_MAX_FRAME_LENGTH = 256 * 1024 * 1024;

    private final String host;
    private final int port;
    private final String token;
    private final int maxFrameLength;
    private final int maxConnections;
    private final int maxConnectionsPerAddress;
    private final int maxUnconfirmedPublishes;
    private final int heartbeatIntervalMillis;
    private final int ioThreads;
    private final boolean preferNativeTransport;
    private final Path tlsCertificateChain;
    private final Path tlsPrivateKey;
    private final String kafkaHost;
    private final int kafkaPort;
    private final String writesRefused;

    private ServerConfig(final Builder builder)
    {
        this.host = builder.host;
        this.port = builder.port;
        this.token = builder.token;
        this.maxFrameLength = builder.maxFrameLength;
        this.maxConnections = builder.maxConnections;
        this.maxConnectionsPerAddress = builder.maxConnectionsPerAddress == 0 ? builder.maxConnections :
            builder.maxConnectionsPerAddress;
        this.maxUnconfirmedPublishes = builder.maxUnconfirmedPublishes;
        this.heartbeatIntervalMillis = builder.heartbeatIntervalMillis;
        this.ioThreads = builder.ioThreads;
        this.preferNativeTransport = builder.preferNativeTransport;
        this.tlsCertificateChain = builder.tlsCertificateChain;
        this.tlsPrivateKey = builder.tlsPrivateKey;
        this.kafkaHost = builder.kafkaHost;
        this.kafkaPort = builder.kafkaPort;
        this.writesRefused = builder.writesRefused;
    }

    public static Builder builder()
    {
        return new Builder();
    }

    public static ServerConfig defaults()
    {
        return builder().build();
    }

    public String host()
    {
        return host;
    }

    /** Why this server refuses to publish and to create or delete topics, or null when it does not. */
    public String writesRefused()
    {
        return writesRefused;
    }

    /** 0 picks a free port; {@link SpoolServer#port()} tells which. */
    public int port()
    {
        return port;
    }

    /** The shared secret clients must present, or null when none is required. */
    public String token()
    {
        return token;
    }

    public int maxFrameLength()
    {
        return maxFrameLength;
    }

    /** Connections open at once; a refused connection does not count. */
    public int maxConnections()
    {
        return maxConnections;
    }

    /** Connections open at once from one client address; {@link #maxConnections()} unless set lower. */
    public int maxConnectionsPerAddress()
    {
        return maxConnectionsPerAddress;
    }

    /** Records a connection may have published and not yet been told about before the server stops reading it. */
    public int maxUnconfirmedPublishes()
    {
        return maxUnconfirmedPublishes;
    }

    public int heartbeatIntervalMillis()
    {
        return heartbeatIntervalMillis;
    }

    public int ioThreads()
    {
        return ioThreads;
    }

    public boolean preferNativeTransport()
    {
        return preferNativeTransport;
    }

    /** The PEM certificate chain the server presents, or null when it speaks plain TCP. */
    public Path tlsCertificateChain()
    {
        return tlsCertificateChain;
    }

    /** The PEM (unencrypted PKCS#8) private key of {@link #tlsCertificateChain()}, or null. */
    public Path tlsPrivateKey()
    {
        return tlsPrivateKey;
    }

    /** The address the Kafka listener binds; {@link #host()} unless told otherwise. */
    public String kafkaHost()
    {
        return kafkaHost == null ? host : kafkaHost;
    }

    /** The port of the Kafka listener ({@code io.spool.wire.kafka}), 0 for a free one, or -1 for none. */
    public int kafkaPort()
    {
        return kafkaPort;
    }

    /** Collects settings; not thread-safe. */
    public static final class Builder
    {
        private String host = DEFAULT_HOST;
        private int port = DEFAULT_PORT;
        private String token;
        private int maxFrameLength = DEFAULT_MAX_FRAME_LENGTH;
        private int maxConnections = 1024;
        /** 0: no limit of its own, only {@link #maxConnections}. */
        private int maxConnectionsPerAddress;
        private int maxUnconfirmedPublishes = 64 * 1024;
        private int heartbeatIntervalMillis = 5_000;
        private int ioThreads = Math.max(1, Runtime.getRuntime().availableProcessors());
        private boolean preferNativeTransport = true;
        private Path tlsCertificateChain;
        private Path tlsPrivateKey;
        private String kafkaHost;
        private int kafkaPort = -1;
        private String writesRefused;

        private Builder()
        {
        }

        /** The address to bind; 127.0.0.1 unless told otherwise, so a server is not reachable from outside by mistake. */
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

        public Builder token(final String token)
        {
            this.token = token;
            return this;
        }

        public Builder maxFrameLength(final int maxFrameLength)
        {
            this.maxFrameLength = maxFrameLength;
            return this;
        }

        public Builder maxConnections(final int maxConnections)
        {
            this.maxConnections = maxConnections;
            return this;
        }

        /** Bounds the connections one client address holds open, so that one host cannot take them all. */
        public Builder maxConnectionsPerAddress(final int maxConnectionsPerAddress)
        {
            this.maxConnectionsPerAddress = maxConnectionsPerAddress;
            return this;
        }

        public Builder maxUnconfirmedPublishes(final int maxUnconfirmedPublishes)
        {
            this.maxUnconfirmedPublishes = maxUnconfirmedPublishes;
            return this;
        }

        public Builder heartbeatIntervalMillis(final int heartbeatIntervalMillis)
        {
            this.heartbeatIntervalMillis = heartbeatIntervalMillis;
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

        /**
         * Serves TLS only: every connection starts with a TLS handshake in which the server presents
         * {@code certificateChain} (PEM), whose key is {@code privateKey} (PEM, unencrypted PKCS#8).
         */
        public Builder tls(final Path certificateChain, final Path privateKey)
        {
            this.tlsCertificateChain = certificateChain;
            this.tlsPrivateKey = privateKey;
            return this;
        }

        /**
         * Serves Kafka's protocol too, on {@code port} of {@code host} (null for the native listener's host), with
         * the same token (as SASL/PLAIN's password) and TLS.
         */
        public Builder kafka(final String host, final int port)
        {
            this.kafkaHost = host;
            this.kafkaPort = port;
            return this;
        }

        /**
         * Refuses every publish and every topic create or delete with {@code reason} (as an
         * {@code InvalidRequestException}), and serves the rest: for an engine that something else writes, as a
         * cluster node's topics are written by their Raft groups. Null serves writes, the default.
         */
        public Builder writesRefused(final String reason)
        {
            this.writesRefused = reason;
            return this;
        }

        /**
         * @throws IllegalArgumentException when a setting is out of range; the message says which.
         */
        public ServerConfig build()
        {
            require(host != null && !host.isEmpty(), "host must be set");
            require(port >= 0 && port <= 0xFFFF, "port must be between 0 and 65535, was " + port);
            require(maxFrameLength >= FrameDescriptor.MIN_MAX_FRAME_LENGTH && maxFrameLength <= MAX_MAX_FRAME_LENGTH,
                "maxFrameLength must be between " + FrameDescriptor.MIN_MAX_FRAME_LENGTH + " and " +
                MAX_MAX_FRAME_LENGTH + ", was " + maxFrameLength);
            require(maxConnections >= 1, "maxConnections must be at least 1, was " + maxConnections);
            require(maxConnectionsPerAddress >= 0 && maxConnectionsPerAddress <= maxConnections,
                "maxConnectionsPerAddress must be between 1 and maxConnections (" + maxConnections + "), was " +
                maxConnectionsPerAddress);
            require(maxUnconfirmedPublishes >= 1,
                "maxUnconfirmedPublishes must be at least 1, was " + maxUnconfirmedPublishes);
            require(heartbeatIntervalMillis >= 1,
                "heartbeatIntervalMillis must be at least 1, was " + heartbeatIntervalMillis);
            require(ioThreads >= 1, "ioThreads must be at least 1, was " + ioThreads);
            require(kafkaPort >= -1 && kafkaPort <= 0xFFFF, "kafkaPort must be between 0 and 65535 (or -1 for no " +
                "Kafka listener), was " + kafkaPort);
            require((tlsCertificateChain == null) == (tlsPrivateKey == null),
                "TLS needs both a certificate chain and its private key, was given " + tlsCertificateChain + " and " +
                tlsPrivateKey);
            return new ServerConfig(this);
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
