package io.spool.perf.cli;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/** A server's {@code HOST:PORT} as an operator types it. Immutable, thread-safe. */
record ServerAddress(String host, int port)
{
    /**
     * @param what the option or parameter that gave it, for the error message.
     * @throws ParameterException when {@code address} is not HOST:PORT with a port from 0 to 65535.
     */
    static ServerAddress parse(final CommandLine commandLine, final String what, final String address)
    {
        final int colon = address.lastIndexOf(':');
        if (colon <= 0 || colon == address.length() - 1)
        {
            throw new ParameterException(commandLine, what + " must be HOST:PORT, was " + address);
        }
        final int port;
        try
        {
            port = Integer.parseInt(address.substring(colon + 1));
        }
        catch (final NumberFormatException ex)
        {
            throw new ParameterException(commandLine, what + " must be HOST:PORT, was " + address, ex);
        }
        if (port < 0 || port > 65_535)
        {
            throw new ParameterException(commandLine, what + " must be HOST:PORT with a port up to 65535, was " +
                address);
        }
        return new ServerAddress(address.substring(0, colon), port);
    }

    @Override
    public String toString()
    {
        return host + ":" + port;
    }
}
