package io.spool.wire.client;

import io.spool.wire.FrameDescriptor;

import java.nio.file.Path;

/**
 * Settings of a {@link SpoolClient} connection. Immutable, thread-safe.
 */
public final class ClientConfig
{
    private final String host;
    private final int port;
    private final String token;
    private final String clientName;
    private final int connectTimeoutMillis;
    private final int requestTimeoutMillis;
    private final int maxFrameLength;
    private final boolean preferNativeTransport;
    private final Path tlsTrustedCertificates;

    private ClientConfig(final Builder builder)
    {
        this.host = builder.host;
        this.port = builder.port;
        this.token = builder.token;
        this.clientName = builder.clientName;
        this.connectTimeoutMillis = builder.connectTimeoutMillis;
        this.requestTimeoutMillis = builder.requestTimeoutMillis;
        this.maxFrameLength = builder.maxFrameLength;
        this.preferNativeTransport = builder.preferNativeTransport;
        this.tlsTrustedCertificates = builder.tlsTrustedCertificates;
    }

    public static Builder builder()
    {
        return new Builder();
    }

    public String host()
    {
        return host;
    }

    public int port()
    {
        return port;
    }

    /** The shared secret to present, or null. */
    public String token()
    {
        return token;
    }

    public String clientName()
    {
        return clientName;
    }

    public int connectTimeoutMillis()
    {
        return connectTimeoutMillis;
    }

    /** How long a blocking call waits for its answer (a long-poll fetch adds its own wait). */
    public int requestTimeoutMillis()
    {
        return requestTimeoutMillis;
    }

    /** The largest frame the client accepts from the server. */
    public int maxFrameLength()
    {
        return maxFrameLength;
    }

    public boolean preferNativeTransport()
    {
        return preferNativeTransport;
    }

    /** The PEM certificates a TLS connection trusts, or null for plain TCP. */
    public Path tlsTrustedCertificates()
    {
        return tlsTrustedCertificates;
    }

    /** Collects settings; not thread-safe. */
    public static final class Builder
    {
        private String host = "127.0.0.1";
        private int port = 7420;
        private String token;
        private String clientName = "spool-client";
        private int connectTimeoutMillis = 5_000;
        private int requestTimeoutMillis = 30_000;
        private int maxFrameLength = 64 * 1024 * 1024;
        private boolean preferNativeTransport = true;
        private Path tlsTrustedCertificates;

        private Builder()
        {
        }

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

        public Builder clientName(final String clientName)
        {
            this.clientName = clientName;
            return this;
        }

        public Builder connectTimeoutMillis(final int connectTimeoutMillis)
        {
            this.connectTimeoutMillis = connectTimeoutMillis;
            return this;
        }

        public Builder requestTimeoutMillis(final int requestTimeoutMillis)
        {
            this.requestTimeoutMillis = requestTimeoutMillis;
            return this;
        }

        public Builder maxFrameLength(final int maxFrameLength)
        {
            this.maxFrameLength = maxFrameLength;
            return this;
        }

        public Builder preferNativeTransport(final boolean preferNativeTransport)
        {
            this.preferNativeTransport = preferNativeTransport;
            return this;
        }

        /**
         * Connects over TLS, trusting the certificates in {@code trustedCertificates} (PEM: the server's own
         * self-signed certificate, or the authority that signed it); the server's certificate must name the host.
         */
        public Builder tls(final Path trustedCertificates)
        {
            this.tlsTrustedCertificates = trustedCertificates;
            return this;
        }

        /**
         * @throws IllegalArgumentException when a setting is out of range; the message says which.
         */
        public ClientConfig build()
        {
            if (host == null || host.isEmpty() || port < 1 || port > 0xFFFF)
            {
                throw new IllegalArgumentException("host and a port between 1 and 65535 must be set, were " +
                    host + ":" + port);
            }
            if (connectTimeoutMillis < 1 || requestTimeoutMillis < 1)
            {
                throw new IllegalArgumentException("timeouts must be positive, were connect " + connectTimeoutMillis +
                    " and request " + requestTimeoutMillis);
            }
            if (maxFrameLength < FrameDescriptor.MIN_MAX_FRAME_LENGTH)
            {
                throw new IllegalArgumentException("maxFrameLength must be at least " +
                    FrameDescriptor.MIN_MAX_FRAME_LENGTH + ", was " + maxFrameLength);
            }
            return new ClientConfig(this);
        }
    }
}
