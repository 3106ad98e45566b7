package io.spool.perf.cli;

import io.spool.perf.report.BenchResult;
import io.spool.perf.report.ResultFormatter;

import java.io.PrintWriter;

/** Prints a benchmark's result as text or as one line of JSON. */
final class BenchOutput
{
    private BenchOutput()
    {
    }

    static void print(final BenchResult result, final boolean json, final PrintWriter out)
    {
        if (json)
        {
            out.println(ResultFormatter.json(result));
        }
        else
        {
            out.print(ResultFormatter.text(result));
        }
        out.flush();
    }
}
