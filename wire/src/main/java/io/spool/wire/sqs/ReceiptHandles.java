package io.spool.wire.sqs;

import io.spool.api.queue.Receipt;
import io.spool.log.DurableFiles;
import io.spool.log.FileSync;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Receipt handles: an engine receipt (issuer, partition, offset, delivery number) with the incarnation of the queue
 * that handed it out, sealed by an HMAC-SHA256 over those and the queue's name under a key kept in the endpoint's
 * directory. A handle cannot be forged, nor used on another queue, nor outlive a purge or a re-creation of its queue
 * (each starts a new incarnation): the subscription identity is checked here, and the engine checks the receipt's
 * issuer again. The key outlives restarts, so do the handles. Thread-safe.
 * <pre>
 *   version (1) | incarnation (8) | issuer (8) | partition (4) | offset (8) | delivery (4) | MAC (16), base64url
 * </pre>
 */
final class ReceiptHandles
{
    private static final byte VERSION = 1;
    private static final int SEALED_LENGTH = 1 + 8 + 8 + 4 + 8 + 4;
    private static final int MAC_LENGTH = 16;
    private static final int KEY_LENGTH = 32;
    private static final String ALGORITHM = "HmacSHA256";

    private final SecretKeySpec key;
    private final ThreadLocal<Mac> macs;

    private ReceiptHandles(final byte[] key)
    {
        this.key = new SecretKeySpec(key, ALGORITHM);
        this.macs = ThreadLocal.withInitial(this::newMac);
    }

    /** Handles sealed with the key in {@code file}, made (from a secure random source) when the file is missing. */
    static ReceiptHandles keyedBy(final FileSync sync, final Path file)
    {
        byte[] key = DurableFiles.read(file);
        if (key == null || key.length != KEY_LENGTH)
        {
            key = new byte[KEY_LENGTH];
            new SecureRandom().nextBytes(key);
            DurableFiles.replace(sync, file, key);
        }
        return new ReceiptHandles(key);
    }

    private Mac newMac()
    {
        try
        {
            final Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac;
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("this JVM cannot compute " + ALGORITHM + ", which every Java platform has", ex);
        }
    }

    String encode(final String queue, final long incarnation, final Receipt receipt)
    {
        final ByteBuffer handle = ByteBuffer.allocate(SEALED_LENGTH + MAC_LENGTH);
        handle.put(VERSION).putLong(incarnation).putLong(receipt.issuer()).putInt(receipt.partition())
            .putLong(receipt.offset()).putInt(receipt.deliveryNumber());
        handle.put(seal(queue, handle.array()));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(handle.array());
    }

    /**
     * @throws SqsException ({@link SqsError#RECEIPT_HANDLE_IS_INVALID}) when the handle is not one this endpoint made
     *                      for this incarnation of this queue.
     */
    Receipt decode(final String queue, final long incarnation, final String handle)
    {
        final byte[] bytes;
        try
        {
            bytes = Base64.getUrlDecoder().decode(handle);
        }
        catch (final IllegalArgumentException ex)
        {
            throw invalid(handle, "it is not a receipt handle this endpoint made");
        }
        // Only the encoding this endpoint writes: a decoder ignores the last character's spare bits, so other
        // spellings of the same bytes would pass the seal.
        if (bytes.length != SEALED_LENGTH + MAC_LENGTH || bytes[0] != VERSION ||
            !Base64.getUrlEncoder().withoutPadding().encodeToString(bytes).equals(handle) ||
            !MessageDigest.isEqual(seal(queue, bytes), Arrays.copyOfRange(bytes, SEALED_LENGTH, bytes.length)))
        {
            throw invalid(handle, "it is not a receipt handle of queue " + queue);
        }
        final ByteBuffer fields = ByteBuffer.wrap(bytes, 1, SEALED_LENGTH - 1);
        if (fields.getLong() != incarnation)
        {
            throw invalid(handle, "queue " + queue + " was purged or created again since the message was received");
        }
        final long issuer = fields.getLong();
        final int partition = fields.getInt();
        final long offset = fields.getLong();
        final int delivery = fields.getInt();
        return new Receipt(issuer, partition, offset, delivery);
    }

    private byte[] seal(final String queue, final byte[] handle)
    {
        final Mac mac = macs.get();
        mac.update(queue.getBytes(StandardCharsets.UTF_8));
        mac.update((byte)0);
        mac.update(handle, 0, SEALED_LENGTH);
        return Arrays.copyOf(mac.doFinal(), MAC_LENGTH);
    }

    static SqsException invalid(final String handle, final String why)
    {
        final String shown = handle.length() > 80 ? handle.substring(0, 80) + "..." : handle;
        return SqsError.RECEIPT_HANDLE_IS_INVALID.with("The input receipt handle \"" + shown +
            "\" is not a valid receipt handle: " + why + ".");
    }
}
