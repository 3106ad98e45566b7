package io.spool.perf.cli;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/** Where a benchmark writes and what it prints: its data directory, JSON instead of text, and the HTML report. */
final class RunOutputOptions
{
    @Option(names = "--data-dir", defaultValue = "spool-data", paramLabel = "DIR",
        description = "Directory the run writes into, in fresh subdirectories deleted afterwards (default: "
            + "${DEFAULT-VALUE}).")
    Path dataDir;

    @Option(names = "--json", description = "Print JSON objects, one per line, instead of text.")
    boolean json;

    @Option(names = "--report", paramLabel = "FILE.html",
        description = "Also write a self-contained HTML page with charts: throughput over the run, the latency "
            + "percentiles, Spool beside its baseline, for every configuration run.")
    Path report;
}
