package io.spool.stream;

import io.spool.stream.internal.topic.TopicMetadataStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks the stream layer's small files in a data directory without changing anything, for {@code spool verify}:
 * the topic metadata file and its copy. Stateless, thread-safe.
 */
public final class StreamFilesCheck
{
    private StreamFilesCheck()
    {
    }

    /** One line per damaged file, naming it and what an open does about it; empty when all are whole. */
    public static List<String> check(final Path dataDir)
    {
        final List<String> problems = new ArrayList<>();
        final String problem = new TopicMetadataStore(dataDir.resolve(StreamEngine.STREAM_DIRECTORY)).inspect()
            .describe(dataDir, "rebuilds the topics from their partition directories with default settings");
        if (problem != null)
        {
            problems.add(problem);
        }
        return problems;
    }
}
