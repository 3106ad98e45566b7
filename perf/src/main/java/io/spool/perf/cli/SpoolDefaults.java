package io.spool.perf.cli;

import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where an option not given on the command line takes its value from, before its built-in default: the environment
 * variable {@code SPOOL_} + its long name in upper case with dashes as underscores ({@code --metrics-port} reads
 * {@code SPOOL_METRICS_PORT}), then the configuration file of {@code --config FILE} (or {@code SPOOL_CONFIG}), a
 * properties file whose keys are long option names without the dashes ({@code metrics-port=9420}). Remembers
 * where each value came from, so that a bad one is reported by its source. Not thread-safe: one per command line.
 */
final class SpoolDefaults implements IDefaultValueProvider
{
    static final String ENVIRONMENT_PREFIX = "SPOOL_";
    static final String CONFIG_VARIABLE = "SPOOL_CONFIG";

    private final Map<String, String> environment;
    private final Path configFile;
    private final Properties config;
    private final Map<ArgSpec, String> sources = new IdentityHashMap<>();

    private SpoolDefaults(final Map<String, String> environment, final Path configFile, final Properties config)
    {
        this.environment = Map.copyOf(environment);
        this.configFile = configFile;
        this.config = config;
    }

    /**
     * Defaults from {@code environment} and from the configuration file named by {@code --config} in {@code args}
     * or by {@code SPOOL_CONFIG}.
     *
     * @throws BadSettingException when the file cannot be read or is not a properties file.
     */
    static SpoolDefaults of(final Map<String, String> environment, final String[] args)
    {
        final String named = configArgument(args);
        final Path file = named != null ? Path.of(named) :
            environment.containsKey(CONFIG_VARIABLE) ? Path.of(environment.get(CONFIG_VARIABLE)) : null;
        return new SpoolDefaults(environment, file, file == null ? new Properties() : load(file));
    }

    /** The value of {@code --config FILE} or {@code --config=FILE} in {@code args}, or null. */
    private static String configArgument(final String[] args)
    {
        for (int i = 0; i < args.length; i++)
        {
            if (args[i].equals("--"))
            {
                return null;
            }
            if (args[i].equals("--config") && i + 1 < args.length)
            {
                return args[i + 1];
            }
            if (args[i].startsWith("--config="))
            {
                return args[i].substring("--config=".length());
            }
        }
        return null;
    }

    private static Properties load(final Path file)
    {
        final Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8))
        {
            properties.load(in);
        }
        catch (final IOException ex)
        {
            throw new BadSettingException("--config " + file + ": cannot read the file (" + describe(ex) + ")");
        }
        catch (final IllegalArgumentException ex)
        {
            throw new BadSettingException("--config " + file + ": not a properties file (" + ex.getMessage() + ")");
        }
        return properties;
    }

    private static String describe(final IOException ex)
    {
        return ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getClass().getSimpleName() + ": " +
            ex.getMessage();
    }

    /** The environment variable of an option: {@code --metrics-port} is {@code SPOOL_METRICS_PORT}. */
    static String environmentVariable(final OptionSpec option)
    {
        return ENVIRONMENT_PREFIX + key(option).toUpperCase(Locale.ROOT).replace('-', '_');
    }

    /** The configuration file's key of an option: its longest name without the leading dashes. */
    static String key(final OptionSpec option)
    {
        return option.longestName().replaceFirst("^-+", "");
    }

    @Override
    public String defaultValue(final ArgSpec argument)
    {
        if (!(argument instanceof OptionSpec option) || option.usageHelp() || option.versionHelp() ||
            key(option).equals("config"))
        {
            return null;
        }
        final String variable = environmentVariable(option);
        final String fromEnvironment = environment.get(variable);
        if (fromEnvironment != null)
        {
            sources.put(argument, "environment variable " + variable + "=" + fromEnvironment);
            return fromEnvironment;
        }
        final String fromFile = config.getProperty(key(option));
        if (fromFile != null)
        {
            sources.put(argument, configFile + ": " + key(option) + "=" + fromFile);
            return fromFile;
        }
        return null;
    }

    /** Where the value of {@code argument} came from when it was not the command line, or null. */
    String sourceOf(final ArgSpec argument)
    {
        return sources.get(argument);
    }

    /**
     * Checks that every key of the configuration file names an option of {@code command}, the command being run.
     *
     * @throws BadSettingException naming the first unknown key and the keys there are.
     */
    void checkKeysFor(final CommandSpec command)
    {
        final Set<String> known = new TreeSet<>();
        for (final OptionSpec option : command.options())
        {
            if (!option.usageHelp() && !option.versionHelp())
            {
                known.add(key(option));
            }
        }
        for (final String key : new TreeSet<>(config.stringPropertyNames()))
        {
            if (!known.contains(key))
            {
                throw new BadSettingException(configFile + ": unknown setting '" + key + "' for " +
                    command.qualifiedName() + "; its settings are " + String.join(", ", known));
            }
        }
    }

    /** A setting from the environment or a configuration file that cannot be used; the message says which. */
    static final class BadSettingException extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        BadSettingException(final String message)
        {
            super(message);
        }
    }
}
