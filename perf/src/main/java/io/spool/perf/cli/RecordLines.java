package io.spool.perf.cli;

import io.spool.api.log.RecordView;

import java.nio.charset.StandardCharsets;

/** How {@code consume} and {@code tail} print a record: one line, values as UTF-8 text. Stateless. */
final class RecordLines
{
    private RecordLines()
    {
    }

    /** For example {@code partition=0 offset=3 key="customer-7" value="order #1"}; a null key prints as null. */
    static String line(final int partition, final RecordView record)
    {
        return "partition=" + partition + " offset=" + record.offset() +
            " key=" + quoted(record.keyLength() < 0 ? null : record.keyBytes()) +
            " value=" + quoted(record.valueLength() < 0 ? null : record.valueBytes());
    }

    private static String quoted(final byte[] bytes)
    {
        if (bytes == null)
        {
            return "null";
        }
        final String text = new String(bytes, StandardCharsets.UTF_8);
        final StringBuilder quoted = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            switch (c)
            {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '\r' -> quoted.append("\\r");
                case '\t' -> quoted.append("\\t");
                default -> quoted.append(c < 0x20 ? String.format("\\u%04x", (int)c) : String.valueOf(c));
            }
        }
        return quoted.append('"').toString();
    }
}
