package io.spool.perf.cli;

import picocli.CommandLine.Option;

/** How many rounds a benchmark that alternates its sides round by round measures, after how many warm-up rounds. */
final class RoundOptions
{
    @Option(names = "--rounds", defaultValue = "5", paramLabel = "N",
        description = "Measured rounds (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--warmup-rounds", defaultValue = "1", paramLabel = "N",
        description = "Rounds run first and not counted (default: ${DEFAULT-VALUE}).")
    int warmupRounds;
}
