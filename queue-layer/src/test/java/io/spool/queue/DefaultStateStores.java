package io.spool.queue;

import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.internal.store.SubscriptionStateStore;
import org.agrona.concurrent.EpochClock;

import java.nio.file.Path;

/** Opens the state store of partition 0 of a subscription with the default settings, as store-level tests need. */
final class DefaultStateStores
{
    private DefaultStateStores()
    {
    }

    static SubscriptionStateStore open(final Path directory, final EpochClock clock)
    {
        return SubscriptionStateStore.open(directory, 0, SubscriptionSettings.DEFAULT, 0, clock,
            StateStoreConfig.DEFAULT, DeadLetterHandler.NONE);
    }
}
