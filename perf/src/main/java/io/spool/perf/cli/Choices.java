package io.spool.perf.cli;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

import java.util.Locale;
import java.util.StringJoiner;

/**
 * Enum constants as the command line spells them: lower case with hyphens ({@code KEY_STICKY} is
 * {@code key-sticky}), in options, text output and JSON alike. Stateless, thread-safe.
 */
final class Choices
{
    private Choices()
    {
    }

    static String name(final Enum<?> value)
    {
        return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * @throws ParameterException naming the option and the choices when {@code text} is none of them.
     */
    static <E extends Enum<E>> E parse(final CommandLine commandLine, final String option, final String text,
        final E[] values)
    {
        final StringJoiner choices = new StringJoiner(", ");
        for (final E value : values)
        {
            if (name(value).equalsIgnoreCase(text.trim()))
            {
                return value;
            }
            choices.add(name(value));
        }
        throw new ParameterException(commandLine, option + ": '" + text + "' is not one of " + choices);
    }
}
