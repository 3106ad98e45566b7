package io.spool.stream.internal.group;

import io.spool.api.stream.TopicPartition;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The offset store against a plain map: any sequence of commits, deletes and reopens leaves the same offsets.
 */
class CommittedOffsetStoreProperties
{
    private static final List<String> GROUPS = List.of("a", "b", "c");
    private static final List<String> TOPICS = List.of("x", "y");

    /** One step: 0-6 commit, 7 delete a topic, 8 delete a group, 9 reopen. */
    record Step(int kind, String group, String topic, int partition, long offset)
    {
    }

    @Provide
    Arbitrary<Step> steps()
    {
        return Combinators.combine(
            Arbitraries.integers().between(0, 9),
            Arbitraries.of(GROUPS),
            Arbitraries.of(TOPICS),
            Arbitraries.integers().between(0, 3),
            Arbitraries.longs().between(0, 1_000_000)).as(Step::new);
    }

    @Property(tries = 50)
    void matchesAMapAcrossReopens(@ForAll @Size(max = 60) final List<@From("steps") Step> steps)
        throws IOException
    {
        final Path dir = Files.createTempDirectory("offsets-property");
        final Path file = dir.resolve("committed.log");
        final Map<String, Map<TopicPartition, Long>> model = new HashMap<>();
        CommittedOffsetStore store = CommittedOffsetStore.open(file, false);
        try
        {
            for (final Step step : steps)
            {
                if (step.kind() <= 6)
                {
                    final TopicPartition partition = new TopicPartition(step.topic(), step.partition());
                    store.commit(step.group(), partition, step.offset());
                    model.computeIfAbsent(step.group(), g -> new HashMap<>()).put(partition, step.offset());
                }
                else if (step.kind() == 7)
                {
                    store.deleteTopic(step.topic());
                    model.values().forEach(offsets -> offsets.keySet().removeIf(p -> p.topic().equals(step.topic())));
                }
                else if (step.kind() == 8)
                {
                    store.deleteGroup(step.group());
                    model.remove(step.group());
                }
                else
                {
                    store.close();
                    store = CommittedOffsetStore.open(file, false);
                    assertThat(store.truncatedBytesOnOpen()).isZero();
                }
                for (final String group : GROUPS)
                {
                    assertThat(store.committedOffsets(group)).isEqualTo(model.getOrDefault(group, Map.of()));
                }
            }
        }
        finally
        {
            store.close();
            deleteTree(dir);
        }
    }

    private static void deleteTree(final Path dir)
    {
        try (Stream<Path> paths = Files.walk(dir))
        {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList())
            {
                Files.delete(path);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
