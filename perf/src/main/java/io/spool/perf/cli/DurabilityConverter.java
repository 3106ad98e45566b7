package io.spool.perf.cli;

import io.spool.api.log.Durability;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads {@code none}, {@code every-batch} or {@code interval:MS} as the log's durability policy. */
final class DurabilityConverter implements ITypeConverter<Durability>
{
    @Override
    public Durability convert(final String value)
    {
        try
        {
            return Durability.parse(value);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new TypeConversionException(ex.getMessage());
        }
    }
}
