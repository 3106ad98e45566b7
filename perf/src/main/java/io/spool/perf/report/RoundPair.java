package io.spool.perf.report;

/**
 * One round of a benchmark that alternates Spool and a peer: what each did in it. Immutable.
 *
 * @param spoolFirst whether Spool's side ran first in this round (the sides take turns going first).
 */
public record RoundPair(Throughput measured, Throughput baseline, boolean spoolFirst)
{
    /** Spool's records per second as a fraction of the peer's, in this round. */
    public double ratio()
    {
        return measured.ratioTo(baseline);
    }
}
