package io.spool.perf.cli;

import org.junit.jupiter.api.Test;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class WriterOutputStreamTest
{
    @Test
    void forwardsUtf8TextLineByLineAndTheRestOnFlush()
    {
        final StringWriter text = new StringWriter();
        final WriterOutputStream bytes = new WriterOutputStream(new PrintWriter(text));
        try (PrintStream out = new PrintStream(bytes, false, StandardCharsets.UTF_8))
        {
            out.println("données → log");
            assertThat(text.toString()).isEqualTo("données → log" + System.lineSeparator());

            out.print("tail µs");
            out.flush();
            assertThat(text.toString()).endsWith("tail µs");
        }
    }
}
