package io.spool.perf.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class ScratchDirectoryTest
{
    @TempDir
    Path dataDirectory;

    @Test
    void createsAFreshDirectoryPerRunAndDeletesItWithItsContentOnClose() throws IOException
    {
        final Path parent = dataDirectory.resolve("not-yet-there");
        try (ScratchDirectory first = ScratchDirectory.create(parent, "bench-ingest");
            ScratchDirectory second = ScratchDirectory.create(parent, "bench-ingest"))
        {
            assertThat(first.path()).isNotEqualTo(second.path()).hasParent(parent);
            assertThat(first.path().getFileName().toString()).startsWith("bench-ingest-");
            Files.write(Files.createDirectories(first.path().resolve("bench/0")).resolve("segment.log"),
                new byte[] {1, 2, 3});

            first.close();

            assertThat(first.path()).doesNotExist();
            assertThat(second.path()).isDirectory();
        }
        assertThat(parent).isEmptyDirectory();
    }
}
