package io.spool.wire.kafka;

import io.spool.api.stream.TopicPartition;
import org.apache.kafka.common.message.DeleteGroupsRequestData;
import org.apache.kafka.common.message.DeleteGroupsResponseData;
import org.apache.kafka.common.protocol.Errors;

import java.util.Set;

/**
 * DeleteGroups on a cluster node, which the group coordinator serves: a group with members is refused
 * {@code NON_EMPTY_GROUP}, as Kafka refuses it; otherwise its committed offset is deleted through each partition's
 * group that holds one (every node of the partition removes it, and the group's coordinator epoch there), and the
 * coordinator forgets the group. A group with neither members nor offsets is {@code GROUP_ID_NOT_FOUND}. A partition
 * that has applied a commit of the group from a later coordinator stops the deletion with {@code NOT_COORDINATOR}.
 * Thread-safe.
 */
final class ClusterGroupDeletion
{
    private final ClassicGroups classicGroups;
    private final OffsetApis offsets;
    private final PartitionLeaders leaders;

    ClusterGroupDeletion(final ClassicGroups classicGroups, final OffsetApis offsets, final PartitionLeaders leaders)
    {
        this.classicGroups = classicGroups;
        this.offsets = offsets;
        this.leaders = leaders;
    }

    void delete(final KafkaRequest request)
    {
        final DeleteGroupsRequestData body = request.body();
        final DeleteGroupsResponseData response = new DeleteGroupsResponseData();
        final long coordinatorEpoch = leaders.cluster().coordinatorEpoch();
        for (final String groupId : body.groupsNames())
        {
            final DeleteGroupsResponseData.DeletableGroupResult result =
                new DeleteGroupsResponseData.DeletableGroupResult().setGroupId(groupId);
            try
            {
                result.setErrorCode(delete(groupId, coordinatorEpoch).code());
            }
            catch (final RuntimeException ex)
            {
                result.setErrorCode(KafkaErrors.of(ex).code()).setErrorMessage(KafkaErrors.message(ex));
            }
            response.results().add(result);
        }
        request.respond(response);
    }

    private Errors delete(final String groupId, final long coordinatorEpoch)
    {
        if (coordinatorEpoch < 0)
        {
            return Errors.NOT_COORDINATOR;
        }
        if (classicGroups.view(groupId) != null)
        {
            return Errors.NON_EMPTY_GROUP;
        }
        final Set<TopicPartition> held = offsets.committedOnTheCluster(groupId).keySet();
        if (held.isEmpty())
        {
            return Errors.GROUP_ID_NOT_FOUND;
        }
        for (final TopicPartition partition : held)
        {
            if (!leaders.cluster().deleteGroupOffset(groupId, partition, coordinatorEpoch))
            {
                return Errors.NOT_COORDINATOR;
            }
        }
        classicGroups.forgetEmpty(groupId);
        return Errors.NONE;
    }
}
