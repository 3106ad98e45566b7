package io.spool.perf.cli;

import java.util.Locale;

/**
 * The {@code spool} command's logging: slf4j-simple, one line a message on standard error, with an ISO-8601 time,
 * the level and the logger's short name. A {@code -D} given to the JVM (through {@code SPOOL_OPTS}) wins over these
 * defaults. Must run before the first logger is made, so {@link SpoolCommand#main} calls it first.
 */
final class LogSetup
{
    static final String LEVEL_PROPERTY = "org.slf4j.simpleLogger.defaultLogLevel";
    static final String DEFAULT_LEVEL = "info";

    private LogSetup()
    {
    }

    static void defaults()
    {
        setUnlessGiven(LEVEL_PROPERTY, DEFAULT_LEVEL);
        setUnlessGiven("org.slf4j.simpleLogger.logFile", "System.err");
        setUnlessGiven("org.slf4j.simpleLogger.showDateTime", "true");
        setUnlessGiven("org.slf4j.simpleLogger.dateTimeFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSXXX");
        setUnlessGiven("org.slf4j.simpleLogger.showThreadName", "false");
        setUnlessGiven("org.slf4j.simpleLogger.showShortLogName", "true");
        // Netty's own chatter stays below warnings unless asked for
        setUnlessGiven("org.slf4j.simpleLogger.log.io.netty", "warn");
        // so does Ratis' on a cluster node, which logs every setting it reads and every retry of a failover
        setUnlessGiven("org.slf4j.simpleLogger.log.org.apache.ratis", "warn");
        // Ratis' client logs each request a failover fails as an error with its stack, then retries it; a request
        // that fails for good reaches its caller, who reports it
        setUnlessGiven("org.slf4j.simpleLogger.log.org.apache.ratis.client.impl.OrderedAsync", "off");
    }

    /**
     * {@code --log-level}: the level of every logger from now on.
     *
     * @throws IllegalArgumentException naming the levels when {@code level} is none of them.
     */
    static String level(final String level)
    {
        final String normalised = level.toLowerCase(Locale.ROOT);
        switch (normalised)
        {
            case "trace", "debug", "info", "warn", "error", "off" -> System.setProperty(LEVEL_PROPERTY, normalised);
            default -> throw new IllegalArgumentException("'" + level +
                "' is not a log level: give trace, debug, info, warn, error or off");
        }
        return normalised;
    }

    private static void setUnlessGiven(final String property, final String value)
    {
        if (System.getProperty(property) == null)
        {
            System.setProperty(property, value);
        }
    }
}
