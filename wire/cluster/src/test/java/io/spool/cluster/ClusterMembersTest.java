package io.spool.cluster;

import io.spool.api.stream.TopicPartition;
import org.apache.ratis.protocol.RaftGroupId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClusterMembersTest
{
    private static final String FIVE_NODES = "1@h:1,2@h:2,3@h:3,4@h:4,5@h:5";

    @Test
    void aListIsReadInAnyOrderAndKeptById()
    {
        final ClusterMembers members = ClusterMembers.parse("3@10.0.0.3:7501, 1@10.0.0.1:7501,2@10.0.0.2:7502");

        assertThat(members.size()).isEqualTo(3);
        assertThat(members.member(2)).isEqualTo(new ClusterMembers.Member(2, "10.0.0.2", 7502));
        assertThat(members).hasToString("1@10.0.0.1:7501,2@10.0.0.2:7502,3@10.0.0.3:7501");
        assertThat(new ClusterGroups(members).metadata().getGroupId())
            .isEqualTo(new ClusterGroups(ClusterMembers.parse(members.toString())).metadata().getGroupId());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "''                                              | the cluster list is empty",
        "1@h:1,2@h:2                                     | names 2",
        "1@h:1,2@h:2,3@h:3,4@h:4                         | names 4",
        "1@h:1,2@h:2,3@h:3,4@h:4,5@h:5,6@h:6             | names 6",
        "1@h:1,1@h:2,3@h:3                               | node id 1 appears twice",
        "1@h:1,2@h:1,3@h:3                               | address h:1 appears twice",
        "1@h:1,2@h,3@h:3                                 | '2@h' is not ID@HOST:PORT",
        "1@h:1,x@h:2,3@h:3                               | the id and the port are numbers",
        "1@h:1,0@h:2,3@h:3                               | a node id is a positive integer",
        "1@h:1,2@h:70000,3@h:3                           | the port must be 1 to 65535"})
    void aListThatCannotBeAClusterIsRefusedNamingWhy(final String list, final String reason)
    {
        assertThatThrownBy(() -> ClusterMembers.parse(list))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining(reason);
    }

    @ParameterizedTest
    @CsvSource({"2", "4", "6", "0"})
    void aFactorFiveNodesCannotPlaceIsRefusedNamingWhy(final int factor)
    {
        final ClusterGroups five = new ClusterGroups(ClusterMembers.parse(FIVE_NODES));

        assertThatThrownBy(() -> five.checkReplicationFactor(factor))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("replication factor " + factor + " cannot be placed: it must be odd (a majority of its " +
                "nodes confirms) and at most the cluster's 5 nodes");
    }

    @ParameterizedTest
    @CsvSource({"1", "3", "5"})
    void anOddFactorUpToFiveIsPlacedOnFiveNodes(final int factor)
    {
        final ClusterGroups five = new ClusterGroups(ClusterMembers.parse(FIVE_NODES));

        five.checkReplicationFactor(factor);
        assertThat(five.partition("orders", 2, factor, 1).getPeers()).hasSize(factor);
    }

    /** A node given four of the five entries never starts; one given three of them derives other groups. */
    @Test
    void aNodeStartedWithPartOfAFiveNodeListIsRefusedOrJoinsNoneOfItsGroups()
    {
        assertThatThrownBy(() -> ClusterMembers.parse("1@h:1,2@h:2,3@h:3,4@h:4"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("a cluster has an odd number of nodes, at least 3 (a majority must survive the loss of one), " +
                "but '1@h:1,2@h:2,3@h:3,4@h:4' names 4");
        final ClusterGroups five = new ClusterGroups(ClusterMembers.parse(FIVE_NODES));
        final ClusterGroups three = new ClusterGroups(ClusterMembers.parse("1@h:1,2@h:2,3@h:3"));
        assertThat(three.metadata().getGroupId()).isNotEqualTo(five.metadata().getGroupId());
    }

    @Test
    void aNodeIdOutsideTheListIsRefused()
    {
        final ClusterMembers members = ClusterMembers.parse("1@h:1,2@h:2,3@h:3");

        assertThatThrownBy(() -> members.member(4))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("node id 4 is not in the cluster list 1@h:1,2@h:2,3@h:3");
    }

    @Test
    void nodesGivenDifferentListsDeriveDifferentGroups()
    {
        final ClusterGroups ours = new ClusterGroups(ClusterMembers.parse("1@h:1,2@h:2,3@h:3"));
        final ClusterGroups theirs = new ClusterGroups(ClusterMembers.parse("1@h:1,2@h:2,3@h:4"));

        assertThat(theirs.metadata().getGroupId()).isNotEqualTo(ours.metadata().getGroupId());
        assertThat(theirs.partitionGroupId(new TopicPartition("t", 0), 1))
            .isNotEqualTo(ours.partitionGroupId(new TopicPartition("t", 0), 1));
    }

    @Test
    void aTopicCreatedAgainGetsOtherGroupsOfTheSamePartitions()
    {
        final ClusterGroups groups = new ClusterGroups(ClusterMembers.parse("1@h:1,2@h:2,3@h:3"));
        final io.spool.api.stream.TopicPartition partition = new TopicPartition("t", 0);
        final RaftGroupId deleted = groups.partitionGroupId(partition, 7);
        final RaftGroupId again = groups.partitionGroupId(partition, 12);

        assertThat(again).isNotEqualTo(deleted);
        assertThat(groups.isGroupOf(deleted, partition)).isTrue();
        assertThat(groups.isGroupOf(again, partition)).isTrue();
        assertThat(groups.isGroupOf(again, new TopicPartition("t", 1))).isFalse();
        assertThat(ClusterGroups.generationOf(again)).isEqualTo(12);
    }
}
