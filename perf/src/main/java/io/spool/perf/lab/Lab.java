package io.spool.perf.lab;

import java.nio.file.Path;

/**
 * One experiment of docs/guide/labs.md run on Spool through its public API, in virtual time, so it prints the same table
 * every run. Implementations hold no state between runs and are thread-safe.
 */
public interface Lab
{
    /** The name {@code spool lab NAME} takes. */
    String name();

    /** What the lab compares, in one line. */
    String summary();

    /**
     * Runs the experiment on a fresh engine.
     *
     * @param dir an empty directory the lab's engine may fill.
     */
    LabTable run(Path dir);
}
