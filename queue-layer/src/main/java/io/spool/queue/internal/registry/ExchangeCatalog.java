package io.spool.queue.internal.registry;

import io.spool.api.routing.Binding;
import io.spool.api.routing.Exchange;
import io.spool.api.routing.ExchangeType;
import io.spool.api.routing.HeadersMatch;
import io.spool.log.CopiedFile;
import io.spool.log.FileSync;
import io.spool.queue.CorruptStateException;
import io.spool.queue.routing.Exchanges;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The durable list of exchanges and their bindings, one line each, followed by a CRC32C of the lines. Names, keys
 * and header values are written in unpadded URL-safe Base64, so no character of theirs can break a line.
 * <pre>
 *   spool-exchanges 1
 *   exchange NAME TYPE ALTERNATE|-
 *   binding EXCHANGE SUBSCRIPTION KEY [ALL|ANY (HEADER=VALUE|HEADER=-)...]
 *   ...
 *   crc HEX
 * </pre>
 * Replaced atomically on every change, and kept twice ({@link CopiedFile}). Not thread-safe: its owner serialises
 * changes.
 */
public final class ExchangeCatalog
{
    private static final String MAGIC = "spool-exchanges 1";
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private final Path file;
    private final FileSync sync;

    public ExchangeCatalog(final Path file, final FileSync sync)
    {
        this.file = file;
        this.sync = sync;
    }

    /**
     * Declares and binds what the file (or, when it is damaged, its copy) holds into {@code exchanges}.
     *
     * @return why the file itself was not used and its copy was, or null when it was.
     * @throws CorruptStateException if the file and its copy are both damaged.
     */
    public String loadInto(final Exchanges exchanges)
    {
        final CopiedFile.Loaded<String> loaded = CopiedFile.load(sync, file, this::checked);
        if (loaded.value() == null)
        {
            return null;
        }
        for (final String line : loaded.value().split("\n"))
        {
            final String[] fields = line.split(" ");
            if (fields[0].equals("exchange"))
            {
                exchanges.declare(decode(fields[1]), ExchangeType.valueOf(fields[2]),
                    fields[3].equals("-") ? null : decode(fields[3]));
            }
            else if (fields[0].equals("binding"))
            {
                final Exchange exchange = exchanges.get(decode(fields[1]));
                exchange.bind(parseBinding(exchange.type(), fields));
            }
        }
        return loaded.damage();
    }

    /** Checks the file and its copy without changing them. */
    CopiedFile.Inspection inspect()
    {
        return CopiedFile.inspect(file, this::checked);
    }

    /** Moves the damaged file and its copy aside, for an operator to look at. */
    public Path setAside()
    {
        return CopiedFile.setAside(file);
    }

    /** The lines between the header and the checksum, once both check out. */
    private String checked(final byte[] content)
    {
        final String text = new String(content, StandardCharsets.UTF_8);
        final int crcLine = text.lastIndexOf("crc ");
        if (!text.startsWith(MAGIC + "\n") || crcLine < 0 ||
            !Long.toHexString(crc(text.substring(0, crcLine))).equals(text.substring(crcLine + 4).trim()))
        {
            throw new CorruptStateException("exchange catalog " + file + " is damaged: bad header or checksum");
        }
        return text.substring(MAGIC.length() + 1, crcLine);
    }

    public void save(final Exchanges exchanges)
    {
        final StringBuilder text = new StringBuilder(MAGIC).append('\n');
        for (final Exchange exchange : exchanges.all())
        {
            text.append("exchange ").append(encode(exchange.name())).append(' ').append(exchange.type()).append(' ')
                .append(exchange.alternateExchange() == null ? "-" : encode(exchange.alternateExchange()))
                .append('\n');
        }
        for (final Exchange exchange : exchanges.all())
        {
            for (final Binding binding : exchange.bindings())
            {
                text.append("binding ").append(encode(exchange.name())).append(' ')
                    .append(encode(binding.subscription())).append(' ').append(encode(binding.key()));
                if (binding.headers() != null)
                {
                    text.append(' ').append(binding.headers().mode());
                    for (final Map.Entry<String, byte[]> header : binding.headers().required().entrySet())
                    {
                        text.append(' ').append(encode(header.getKey())).append('=')
                            .append(header.getValue() == null ? "-" : ENCODER.encodeToString(header.getValue()));
                    }
                }
                text.append('\n');
            }
        }
        final long crc = crc(text.toString());
        text.append("crc ").append(Long.toHexString(crc)).append('\n');
        CopiedFile.save(sync, file, text.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static Binding parseBinding(final ExchangeType type, final String[] fields)
    {
        final String subscription = decode(fields[2]);
        final String key = fields.length > 3 ? decode(fields[3]) : "";
        switch (type)
        {
            case DIRECT:
                return Binding.direct(subscription, key);
            case TOPIC:
                return Binding.topic(subscription, key);
            case FANOUT:
                return Binding.fanout(subscription);
            default:
                final Map<String, byte[]> required = new LinkedHashMap<>();
                for (int i = 5; i < fields.length; i++)
                {
                    final int eq = fields[i].indexOf('=');
                    final String value = fields[i].substring(eq + 1);
                    required.put(decode(fields[i].substring(0, eq)), value.equals("-") ? null : DECODER.decode(value));
                }
                return Binding.headers(subscription, new HeadersMatch(HeadersMatch.Mode.valueOf(fields[4]), required));
        }
    }

    private static String encode(final String text)
    {
        return ENCODER.encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String decode(final String text)
    {
        return new String(DECODER.decode(text), StandardCharsets.UTF_8);
    }

    private static long crc(final String text)
    {
        final CRC32C crc = new CRC32C();
        crc.update(text.getBytes(StandardCharsets.UTF_8));
        return crc.getValue();
    }
}
