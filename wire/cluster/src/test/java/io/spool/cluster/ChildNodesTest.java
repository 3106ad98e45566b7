package io.spool.cluster;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/** A test of nodes in child JVMs: their data directories, and every node killed after each test. */
abstract class ChildNodesTest
{
    /** Kept when the test fails, with each node run's log beside the data directories. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    ChildNodes cluster;

    @AfterEach
    void killNodes()
    {
        if (cluster != null)
        {
            cluster.close();
        }
    }
}
