/**
 * Internal: the files of a partition log and the segments it holds. A segment file with its sparse offset and time
 * indexes ({@link io.spool.log.internal.segment.SegmentDescriptor} draws the layout), scanning and checksumming
 * frames, the segment list ({@link io.spool.log.internal.segment.LogSegments}), retention at its head and the log
 * start record, page-cache fills and the mappings kept for idle segments.
 * <p>
 * Not API: nothing outside log-store uses it. It may use the log store's API types (configuration, file sync, record
 * format) and nothing else of the module: neither the pipeline nor recovery. A segment's bytes are written by the
 * append thread only; the segment list is copy-on-write, read by any thread.
 */
package io.spool.log.internal.segment;
