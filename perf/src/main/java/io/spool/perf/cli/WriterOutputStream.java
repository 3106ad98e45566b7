package io.spool.perf.cli;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * Bytes written as UTF-8 text, forwarded to a {@link PrintWriter} a line at a time. Lets tools that print to a
 * {@code PrintStream} write to the command line's own writer, so output can be captured and is never held whole
 * in memory. A line break never falls inside a UTF-8 sequence, so decoding line by line is exact.
 * Not thread-safe.
 */
final class WriterOutputStream extends OutputStream
{
    private final PrintWriter out;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);

    WriterOutputStream(final PrintWriter out)
    {
        this.out = out;
    }

    @Override
    public void write(final int b)
    {
        line.write(b);
        if (b == '\n')
        {
            forwardLine();
        }
    }

    @Override
    public void flush()
    {
        forwardLine();
        out.flush();
    }

    @Override
    public void close()
    {
        flush();
    }

    private void forwardLine()
    {
        if (line.size() > 0)
        {
            out.write(line.toString(StandardCharsets.UTF_8));
            line.reset();
        }
    }
}
