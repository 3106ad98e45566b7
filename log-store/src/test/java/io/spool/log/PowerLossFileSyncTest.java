package io.spool.log;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

import static org.assertj.core.api.Assertions.assertThat;

/** The power-loss layer keeps exactly what was forced: the crash tests that use it prove nothing otherwise. */
class PowerLossFileSyncTest
{
    @TempDir
    Path root;

    @Test
    void keepsForcedBytesAndEntriesAndDropsTheRest() throws IOException
    {
        Files.writeString(root.resolve("before"), "there before");
        final PowerLossFileSync storage = new PowerLossFileSync(root);
        final Path dir = Files.createDirectories(root.resolve("dir"));
        final Path mapped = dir.resolve("mapped");
        final Path written = dir.resolve("written");
        try (FileChannel channel = FileChannel.open(mapped, StandardOpenOption.CREATE, StandardOpenOption.READ,
            StandardOpenOption.WRITE))
        {
            final MappedByteBuffer map = channel.map(FileChannel.MapMode.READ_WRITE, 0, 16);
            map.put(0, "forced--unforced".getBytes(StandardCharsets.US_ASCII));
            storage.force(mapped, map, 0, 6);
        }
        try (FileChannel channel = FileChannel.open(written, StandardOpenOption.CREATE, StandardOpenOption.WRITE))
        {
            channel.write(java.nio.ByteBuffer.wrap("synced".getBytes(StandardCharsets.US_ASCII)));
            storage.force(written, channel, false);
            channel.write(java.nio.ByteBuffer.wrap(" and lost".getBytes(StandardCharsets.US_ASCII)));
        }
        Files.move(written, dir.resolve("renamed"), StandardCopyOption.ATOMIC_MOVE);
        final Path grown = dir.resolve("grown");
        try (FileChannel channel = FileChannel.open(grown, StandardOpenOption.CREATE, StandardOpenOption.READ,
            StandardOpenOption.WRITE))
        {
            channel.write(java.nio.ByteBuffer.wrap("head-tail-more".getBytes(StandardCharsets.US_ASCII)));
            storage.force(grown, channel, 5, 9);
        }
        Files.writeString(dir.resolve("never forced"), "lost with its entry");
        storage.forceDirectory(root);
        storage.forceDirectory(dir);
        Files.writeString(dir.resolve("after the directory force"), "lost");
        Files.writeString(root.resolve("before"), "changed and lost");
        storage.losePower();
        storage.forceDirectory(dir);

        storage.restoreWhatWasForced();

        assertThat(Files.readString(root.resolve("before"))).isEqualTo("there before");
        assertThat(Files.readAllBytes(mapped)).isEqualTo("forced\0\0\0\0\0\0\0\0\0\0".getBytes(StandardCharsets.US_ASCII));
        assertThat(Files.readString(dir.resolve("renamed"))).isEqualTo("synced");
        assertThat(Files.readString(dir.resolve("never forced"))).as("its entry was forced, its bytes never").isEmpty();
        assertThat(dir.resolve("after the directory force")).doesNotExist();
        assertThat(Files.readAllBytes(grown)).as("only the range forced, in a file of the length it had")
            .isEqualTo("\0\0\0\0\0tail\0\0\0\0\0".getBytes(StandardCharsets.US_ASCII));
        assertThat(storage.forces()).isEqualTo(5);
    }

    @Test
    void aDirectoryWhoseParentWasNeverForcedIsGone() throws IOException
    {
        final PowerLossFileSync storage = new PowerLossFileSync(root);
        final Path dir = Files.createDirectories(root.resolve("new"));
        Files.writeString(dir.resolve("file"), "content");
        storage.forceDirectory(dir);
        storage.losePower();
        storage.restoreWhatWasForced();
        assertThat(dir).doesNotExist();
    }
}
