/**
 * What applications hold, the same embedded and remote: {@link io.spool.api.Messaging} (implemented by the
 * embedded {@code io.spool.Spool} and by the client's {@code SpoolClient}), its {@link io.spool.api.Admin}, the
 * root {@link io.spool.api.SpoolException} with the exceptions every layer throws, and {@link io.spool.api.MetricSample}.
 * <p>
 * API. Depends on Agrona alone and on no engine code ({@code ModuleLayeringTest}). Values are immutable; each
 * interface states the threading its implementations keep.
 */
package io.spool.api;
