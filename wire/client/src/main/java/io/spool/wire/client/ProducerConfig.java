package io.spool.wire.client;

import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

/**
 * Settings of a {@link RemoteProducer}: how records are gathered into PUBLISH frames (a batch goes when it holds
 * {@code batchBytes} or its first record is {@code lingerMillis} old) and how many unconfirmed records it allows
 * before a send waits. Immutable, thread-safe.
 */
public final class ProducerConfig
{
    private final int batchBytes;
    private final int lingerMillis;
    private final int maxUnconfirmed;
    private final long maxBlockMillis;
    private final NanoClock clock;

    private ProducerConfig(final Builder builder)
    {
        this.batchBytes = builder.batchBytes;
        this.lingerMillis = builder.lingerMillis;
        this.maxUnconfirmed = builder.maxUnconfirmed;
        this.maxBlockMillis = builder.maxBlockMillis;
        this.clock = builder.clock;
    }

    public static Builder builder()
    {
        return new Builder();
    }

    public static ProducerConfig defaults()
    {
        return builder().build();
    }

    public int batchBytes()
    {
        return batchBytes;
    }

    /** 0 sends every record at once. */
    public int lingerMillis()
    {
        return lingerMillis;
    }

    /** The producer's own bound; the server's (from the handshake) applies too, whichever is lower. */
    public int maxUnconfirmed()
    {
        return maxUnconfirmed;
    }

    /** How long a send waits for room under the bound before it throws {@code BackPressureException}. */
    public long maxBlockMillis()
    {
        return maxBlockMillis;
    }

    /** The clock {@link #maxBlockMillis()} is measured on. */
    public NanoClock clock()
    {
        return clock;
    }

    /** Collects settings; not thread-safe. */
    public static final class Builder
    {
        private int batchBytes = 64 * 1024;
        private int lingerMillis = 2;
        private int maxUnconfirmed = 64 * 1024;
        private long maxBlockMillis = 30_000;
        private NanoClock clock = new SystemNanoClock();

        private Builder()
        {
        }

        public Builder batchBytes(final int batchBytes)
        {
            this.batchBytes = batchBytes;
            return this;
        }

        public Builder lingerMillis(final int lingerMillis)
        {
            this.lingerMillis = lingerMillis;
            return this;
        }

        public Builder maxUnconfirmed(final int maxUnconfirmed)
        {
            this.maxUnconfirmed = maxUnconfirmed;
            return this;
        }

        public Builder maxBlockMillis(final long maxBlockMillis)
        {
            this.maxBlockMillis = maxBlockMillis;
            return this;
        }

        public Builder clock(final NanoClock clock)
        {
            this.clock = clock;
            return this;
        }

        /**
         * @throws IllegalArgumentException when a setting is out of range; the message says which.
         */
        public ProducerConfig build()
        {
            if (batchBytes < 1 || lingerMillis < 0 || maxUnconfirmed < 1 || maxBlockMillis < 0 || clock == null)
            {
                throw new IllegalArgumentException("batchBytes and maxUnconfirmed must be positive, lingerMillis " +
                    "and maxBlockMillis not negative, and a clock set; were " + batchBytes + ", " + maxUnconfirmed +
                    ", " + lingerMillis + ", " + maxBlockMillis);
            }
            return new ProducerConfig(this);
        }
    }
}
