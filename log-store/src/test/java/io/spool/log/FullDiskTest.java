package io.spool.log;

import io.spool.api.SpoolException;
import io.spool.testing.SmallDisk;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A log on a small disk of its own that fills up: an append that finds no room fails with an error naming the
 * segment and the disk, instead of a SIGBUS from a store into an unreserved page of the mapping; nothing of it is
 * stored, and once the disk has room again appends go on at the next offset, with every earlier record intact.
 */
class FullDiskTest
{
    private static final long DISK_BYTES = 64L << 20;
    /** Several segments, so that the disk fills both inside a segment and at a roll. */
    private static final int SEGMENT_BYTES = 1 << 20;
    private static final String VALUE = "x".repeat(1000);

    @TempDir
    Path dir;

    private SmallDisk disk;
    private LogFixture fixture;

    @AfterEach
    void unmount()
    {
        if (fixture != null)
        {
            fixture.close();
        }
        if (disk != null)
        {
            disk.close();
        }
    }

    @Test
    void anAppendThatFindsNoRoomFailsNamingTheDiskAndTheLogGoesOnOnceThereIsRoom()
    {
        disk = SmallDisk.mount(dir.resolve("data"), DISK_BYTES);
        fixture = new LogFixture(dir.resolve("data"));
        final PartitionLog log = fixture.store.openLog("orders-0", LogFixture.smallSegments(SEGMENT_BYTES));
        final List<String> stored = new ArrayList<>();
        for (int i = 0; i < 100; i++)
        {
            stored.add(append(log, stored.size()));
        }
        disk.fillUpTo(3L * SEGMENT_BYTES / 2);

        SpoolException refused = null;
        while (refused == null)
        {
            try
            {
                stored.add(append(log, stored.size()));
            }
            catch (final SpoolException full)
            {
                refused = full;
            }
        }
        assertThat(refused).hasMessageContaining("orders-0").hasMessageContaining("No space left on device")
            .hasMessageContaining("free space");
        assertThat(stored.size()).as("records stored before the disk filled").isGreaterThan(1000);
        assertThat(log.endOffset()).as("nothing of the refused append").isEqualTo(stored.size());

        disk.resize(DISK_BYTES);
        stored.add(append(log, stored.size()));
        fixture.reopen();
        final List<String> expected = new ArrayList<>();
        for (int offset = 0; offset < stored.size(); offset++)
        {
            expected.add(offset + ":null:" + stored.get(offset));
        }
        assertThat(LogFixture.readAll(fixture.store.openLog("orders-0", LogFixture.smallSegments(SEGMENT_BYTES)), 0))
            .containsExactlyElementsOf(expected);
    }

    private String append(final PartitionLog log, final int index)
    {
        final String value = "record " + index + VALUE;
        fixture.append(log, null, value);
        return value;
    }
}
