/**
 * The stored record as both sides read it: the record layout ({@link io.spool.api.log.RecordDescriptor}) and its
 * zero-copy {@link io.spool.api.log.RecordView}, headers, dedup keys, log settings and durability, and the log's
 * exceptions.
 * <p>
 * API. Values are immutable; a view is valid only during the call that hands it over.
 */
package io.spool.api.log;
