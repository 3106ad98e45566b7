/**
 * The reference models the property tests hold Spool to: a partition log, a stream engine, a queue subscription
 * (with overflow and dedup), kept in plain lists and maps so that each rule is readable in one place.
 * <p>
 * Not API. A model is used by the one test thread that drives it.
 */
package io.spool.model;
