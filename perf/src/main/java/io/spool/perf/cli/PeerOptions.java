package io.spool.perf.cli;

import io.spool.perf.bench.ChroniclePeer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.nio.file.Path;

/** The peer an embedded benchmark alternates with, round by round, instead of its raw baseline. */
final class PeerOptions
{
    static final String CHRONICLE = "chronicle";

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--against", paramLabel = CHRONICLE,
        description = "Measure beside Chronicle Queue (run by its peer harness in a forked JVM with Chronicle's "
            + "own flags) in alternating rounds, instead of beside the raw baseline.")
    String against;

    @Option(names = "--chronicle-home", paramLabel = "DIR",
        description = "Where Chronicle Queue's peer harness is set up (default: $PEER_WORK/chronicle, else "
            + "~/.cache/spool-peers/chronicle, where 'peer chronicle setup' puts it).")
    Path chronicleHome;

    /**
     * The peer to measure beside, or null for the raw baseline.
     *
     * @throws ParameterException when the peer is unknown or its harness is not set up.
     */
    ChroniclePeer chronicle()
    {
        if (against == null)
        {
            return null;
        }
        if (!against.equals(CHRONICLE))
        {
            throw new ParameterException(spec.commandLine(), "--against takes chronicle, the one peer of embedded "
                + "ingest and replay, got '" + against + "'");
        }
        try
        {
            return ChroniclePeer.locate(chronicleHome);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(spec.commandLine(), ex.getMessage(), ex);
        }
    }
}
