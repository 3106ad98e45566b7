package io.spool.log;

/**
 * How the three stages of an ingest pipeline (append, flush, publish) are laid onto threads.
 */
public enum PipelineThreading
{
    /**
     * One thread runs the three stages in turn: it appends a batch, forces it by policy, then confirms every record
     * of the batch. Fewest hand-offs, and no more threads than a small machine has cores; a force holds up the
     * next batch's appends.
     */
    COMBINED,

    /**
     * Each stage on its own thread: the next batch is appended while the previous one is forced and confirmed.
     * Worth it when cores are plentiful and fsyncs are slow.
     */
    SPLIT
}
