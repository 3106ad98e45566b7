package io.spool.stream;

import io.spool.api.InvalidRequestException;
import io.spool.log.LogStoreConfig;

/**
 * Settings of a {@link StreamEngine}: those of its log store, and whether each offset commit is forced to disk
 * before it returns. Immutable, thread-safe.
 *
 * @param logStore        pipelines, ring size, clock and maintenance of the underlying log store
 * @param syncEachCommit  fsync committed offsets before a commit returns (survives a machine crash); without it a
 *                        commit survives a process crash only
 */
public record StreamEngineConfig(LogStoreConfig logStore, boolean syncEachCommit)
{
    public StreamEngineConfig
    {
        if (logStore == null)
        {
            throw new InvalidRequestException("log store settings must not be null");
        }
    }

    public static StreamEngineConfig defaults()
    {
        return new StreamEngineConfig(LogStoreConfig.defaults(), true);
    }
}
