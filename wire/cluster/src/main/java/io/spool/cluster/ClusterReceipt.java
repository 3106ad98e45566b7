package io.spool.cluster;

import io.spool.api.InvalidRequestException;

/**
 * Names one delivery of a replicated subscription: the message at {@code offset} of the partition, delivered for
 * the {@code deliveryNumber}-th time. Its text form ({@link #encode()}) is what a consumer hands on; it names
 * topic, partition and subscription, so a settle needs nothing else. Immutable and thread-safe.
 */
public record ClusterReceipt(String topic, int partition, String subscription, long offset, int deliveryNumber)
{
    private static final String SEPARATOR = "/";

    /** The receipt as text: {@code topic/partition/subscription/offset/deliveryNumber}. */
    public String encode()
    {
        return topic + SEPARATOR + partition + SEPARATOR + subscription + SEPARATOR + offset + SEPARATOR +
            deliveryNumber;
    }

    /**
     * @throws InvalidRequestException when the text is not a receipt {@link #encode()} wrote.
     */
    public static ClusterReceipt parse(final String text)
    {
        final String[] parts = text == null ? new String[0] : text.split(SEPARATOR, -1);
        if (parts.length != 5 || parts[0].isEmpty() || parts[2].isEmpty())
        {
            throw garbled(text);
        }
        try
        {
            final int partition = Integer.parseInt(parts[1]);
            final long offset = Long.parseLong(parts[3]);
            final int deliveryNumber = Integer.parseInt(parts[4]);
            if (partition < 0 || offset < 0 || deliveryNumber < 1)
            {
                throw garbled(text);
            }
            return new ClusterReceipt(parts[0], partition, parts[2], offset, deliveryNumber);
        }
        catch (final NumberFormatException notANumber)
        {
            throw garbled(text);
        }
    }

    private static InvalidRequestException garbled(final String text)
    {
        return new InvalidRequestException("receipt \"" + text + "\" is not one a cluster receive handed out " +
            "(topic/partition/subscription/offset/deliveryNumber): settle with the receipt exactly as received");
    }
}
