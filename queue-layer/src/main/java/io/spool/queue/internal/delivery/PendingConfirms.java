package io.spool.queue.internal.delivery;

import io.spool.api.SpoolException;
import io.spool.api.stream.PublishListener;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns the confirms of a zero-copy {@link io.spool.stream.StreamProducer#publish} into futures, by correlation.
 * The zero-copy path stores a dedup id as a plain header, which redrive and dead letters need, but reports only to a
 * listener. Thread-safe: the pipeline thread completes what a publishing thread registered.
 */
public final class PendingConfirms implements PublishListener
{
    private final Map<Long, CompletableFuture<Void>> pending = new ConcurrentHashMap<>();

    /** A future for the publish about to go out with {@code correlation}, completed when it is stored. */
    public CompletableFuture<Void> expect(final long correlation)
    {
        final CompletableFuture<Void> confirm = new CompletableFuture<>();
        pending.put(correlation, confirm);
        return confirm;
    }

    /** The publish of {@code correlation} never went out. */
    public void forget(final long correlation)
    {
        pending.remove(correlation);
    }

    @Override
    public void onPublished(final long correlation, final String topic, final int partition, final long offset)
    {
        pending.remove(correlation).complete(null);
    }

    @Override
    public void onFailed(final long correlation, final String topic, final int partition, final SpoolException error)
    {
        pending.remove(correlation).completeExceptionally(error);
    }
}
