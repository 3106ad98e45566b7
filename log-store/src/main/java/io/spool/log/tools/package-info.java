/**
 * Tools for the people who operate Spool: {@link io.spool.log.tools.LogInspector} verifies and dumps partition logs
 * on disk, without opening them for writing.
 * <p>
 * API (used by the command line). It may use the log store's API and its recovery package. Stateless.
 */
package io.spool.log.tools;
