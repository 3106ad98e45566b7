package io.spool.perf.cli;

import io.spool.perf.baseline.RawMappedAppendBaseline;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.util.Locale;

/** Reads {@code prepared}, {@code allocated} or {@code fresh} as the way the raw append baseline readies its pages. */
final class BaselinePagesConverter implements ITypeConverter<RawMappedAppendBaseline.Pages>
{
    @Override
    public RawMappedAppendBaseline.Pages convert(final String value)
    {
        for (final RawMappedAppendBaseline.Pages pages : RawMappedAppendBaseline.Pages.values())
        {
            if (pages.name().toLowerCase(Locale.ROOT).equals(value))
            {
                return pages;
            }
        }
        throw new TypeConversionException("baseline pages must be prepared, allocated or fresh, was '" + value + "'");
    }
}
