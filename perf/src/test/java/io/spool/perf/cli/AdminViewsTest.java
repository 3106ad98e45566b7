package io.spool.perf.cli;

import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicDescription;
import io.spool.perf.report.JsonValues;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code spool topics describe --json} of a topic described by a cluster node: a partition it holds no copy of names
 * the nodes that hold it instead of the offsets of its empty log.
 */
class AdminViewsTest
{
    @Test
    void aPartitionHeldElsewhereNamesItsHoldersInsteadOfOffsets()
    {
        final TopicDescription described = new TopicDescription("orders", TopicConfig.of(2), List.of(
            new TopicDescription.PartitionDescription(0, 0, 0, 64, 1).heldElsewhereBy(List.of(1, 2, 5)),
            new TopicDescription.PartitionDescription(1, 0, 2, 192, 1)));

        final Map<String, Object> view = AdminViews.topic(described);

        assertThat(view).containsEntry("records", 2L);
        assertThat(JsonValues.write(view.get("partitionDetails"))).isEqualTo("[{\"partition\":0,\"heldElsewhere\":" +
            "[1,2,5]},{\"partition\":1,\"startOffset\":0,\"endOffset\":2,\"records\":2,\"bytes\":192,\"segments\":1}]");
    }

    @Test
    void holdersAreListedAsTheGuideShowsThem()
    {
        assertThat(AdminViews.nodeList(List.of(1, 2, 5))).isEqualTo("1, 2 or 5");
        assertThat(AdminViews.nodeList(List.of(3))).isEqualTo("3");
    }
}
