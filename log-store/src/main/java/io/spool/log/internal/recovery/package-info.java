/**
 * Internal: recovery of a partition log when it is opened (truncate a torn tail, rebuild indexes, record the holes
 * damage left) and the read-only inspection of segments behind {@code spool verify} and {@code spool dump}.
 * <p>
 * Not API: nothing outside log-store uses it (the tools API, {@link io.spool.log.tools.LogInspector}, does). It may
 * use the segment package and the log store's API types, never the pipeline. Runs on the thread that opens the log,
 * before any writer exists.
 */
package io.spool.log.internal.recovery;
