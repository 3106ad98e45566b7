package io.spool.perf.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations ({@code 500ms}, {@code 30s}, {@code 15m}, {@code 12h}, {@code 7d}) and sizes ({@code 4096},
 * {@code 64KiB}, {@code 64MiB}, {@code 1GiB}, also {@code 64k}, {@code 64m}, {@code 1g}; binary units) as the
 * admin commands read and print them; {@code none} is -1 where a setting has no limit. Stateless, thread-safe.
 */
final class Quantities
{
    static final long NONE = -1;

    private static final Pattern DURATION = Pattern.compile("(\\d{1,18})(ms|s|m|h|d)");
    private static final Pattern SIZE = Pattern.compile("(\\d{1,18})(|b|k|kib|m|mib|g|gib|t|tib)");
    private static final String[] DURATION_UNITS = {"d", "h", "m", "s"};
    private static final long[] DURATION_MILLIS = {86_400_000L, 3_600_000L, 60_000L, 1_000L};
    private static final String[] SIZE_UNITS = {"TiB", "GiB", "MiB", "KiB"};
    private static final long[] SIZE_BYTES = {1L << 40, 1L << 30, 1L << 20, 1L << 10};

    private Quantities()
    {
    }

    /**
     * @throws TypeConversionException naming the accepted forms.
     */
    static long parseMillis(final String text)
    {
        final Matcher matcher = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!matcher.matches())
        {
            throw new TypeConversionException("'" + text + "' is not a duration: give a whole number and a unit, " +
                "as 500ms, 30s, 15m, 12h or 7d");
        }
        final long amount = Long.parseLong(matcher.group(1));
        final long unit = switch (matcher.group(2))
        {
            case "ms" -> 1;
            case "s" -> 1_000;
            case "m" -> 60_000;
            case "h" -> 3_600_000;
            default -> 86_400_000;
        };
        return multiply(text, amount, unit);
    }

    /**
     * @throws TypeConversionException naming the accepted forms.
     */
    static long parseBytes(final String text)
    {
        final Matcher matcher = SIZE.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!matcher.matches())
        {
            throw new TypeConversionException("'" + text + "' is not a size: give a whole number of bytes, or one " +
                "with a binary unit, as 4096, 64KiB, 64MiB or 1GiB");
        }
        final long amount = Long.parseLong(matcher.group(1));
        final long unit = switch (matcher.group(2))
        {
            case "", "b" -> 1;
            case "k", "kib" -> 1L << 10;
            case "m", "mib" -> 1L << 20;
            case "g", "gib" -> 1L << 30;
            default -> 1L << 40;
        };
        return multiply(text, amount, unit);
    }

    private static long multiply(final String text, final long amount, final long unit)
    {
        try
        {
            return Math.multiplyExact(amount, unit);
        }
        catch (final ArithmeticException ex)
        {
            throw new TypeConversionException("'" + text + "' is too large");
        }
    }

    /** In the largest unit that divides it exactly: {@code 7d}, {@code 90s}, {@code 250ms}; -1 is {@code none}. */
    static String formatMillis(final long millis)
    {
        if (millis < 0)
        {
            return "none";
        }
        for (int i = 0; i < DURATION_UNITS.length; i++)
        {
            if (millis > 0 && millis % DURATION_MILLIS[i] == 0)
            {
                return millis / DURATION_MILLIS[i] + DURATION_UNITS[i];
            }
        }
        return millis + "ms";
    }

    /** In the largest binary unit that divides it exactly: {@code 64MiB}, {@code 4097}; -1 is {@code none}. */
    static String formatBytes(final long bytes)
    {
        if (bytes < 0)
        {
            return "none";
        }
        for (int i = 0; i < SIZE_UNITS.length; i++)
        {
            if (bytes > 0 && bytes % SIZE_BYTES[i] == 0)
            {
                return bytes / SIZE_BYTES[i] + SIZE_UNITS[i];
            }
        }
        return Long.toString(bytes);
    }

    /** A duration, as {@link #parseMillis}. */
    static final class Millis implements ITypeConverter<Long>
    {
        @Override
        public Long convert(final String value)
        {
            return parseMillis(value);
        }
    }

    /** A duration, or {@code none} (-1) for no limit. */
    static final class MillisOrNone implements ITypeConverter<Long>
    {
        @Override
        public Long convert(final String value)
        {
            return value.equalsIgnoreCase("none") ? NONE : parseMillis(value);
        }
    }

    /** A size, as {@link #parseBytes}. */
    static final class Bytes implements ITypeConverter<Long>
    {
        @Override
        public Long convert(final String value)
        {
            return parseBytes(value);
        }
    }

    /** A size, or {@code none} (-1) for no limit. */
    static final class BytesOrNone implements ITypeConverter<Long>
    {
        @Override
        public Long convert(final String value)
        {
            return value.equalsIgnoreCase("none") ? NONE : parseBytes(value);
        }
    }
}
