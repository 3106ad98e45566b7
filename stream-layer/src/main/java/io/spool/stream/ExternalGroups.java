package io.spool.stream;

import io.spool.api.stream.GroupDescription;

import java.util.Collection;

/**
 * Consumer groups whose members a protocol adapter coordinates itself (Kafka's classic groups, whose assignors run
 * in the clients), shown beside the engine's own by {@link StreamEngine#describeGroup} and
 * {@link StreamEngine#listGroups}: their commits are the engine's committed offsets already. Implementations are
 * thread-safe.
 */
public interface ExternalGroups
{
    /** The group's members and their partitions, or null when it has no live member here. */
    GroupDescription describe(String groupId);

    /** The ids of the groups with live members here. */
    Collection<String> groupIds();
}
