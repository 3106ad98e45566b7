package io.spool.stream.internal.topic;

import io.spool.api.log.LogConfig;
import io.spool.api.stream.TopicConfig;
import io.spool.log.CopiedFile;
import io.spool.stream.CorruptFileException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TopicMetadataStoreTest
{
    @TempDir
    Path dir;

    @Test
    void missingFileMeansNoTopics()
    {
        assertThat(new TopicMetadataStore(dir).load().value()).isEmpty();
    }

    @Test
    void savedTopicsLoadBackInOrder()
    {
        final List<StoredTopic> topics = List.of(
            new StoredTopic("orders", "id-orders", 8, Map.of("segment.bytes", "1048576", "retention.ms", "60000")),
            new StoredTopic("audit", "id-audit", 1, Map.of()));
        new TopicMetadataStore(dir).save(topics);

        assertThat(new TopicMetadataStore(dir).load().value()).isEqualTo(topics);
    }

    @Test
    void saveReplacesTheWholeFileAndLeavesNoTemporary() throws IOException
    {
        final TopicMetadataStore store = new TopicMetadataStore(dir);
        store.save(List.of(new StoredTopic("a", "id-a", 1, Map.of())));
        store.save(List.of(new StoredTopic("b", "id-b", 2, Map.of())));

        assertThat(store.load().value()).containsExactly(new StoredTopic("b", "id-b", 2, Map.of()));
        try (var files = Files.list(dir))
        {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder(
                TopicMetadataDescriptor.FILE_NAME, TopicMetadataDescriptor.FILE_NAME + ".bak");
        }
    }

    @Test
    void leftoverTemporaryFromACrashIsIgnored() throws IOException
    {
        final TopicMetadataStore store = new TopicMetadataStore(dir);
        store.save(List.of(new StoredTopic("kept", "id-kept", 3, Map.of())));
        Files.write(dir.resolve(TopicMetadataDescriptor.FILE_NAME + ".tmp"), new byte[] {1, 2, 3});

        assertThat(new TopicMetadataStore(dir).load().value())
            .containsExactly(new StoredTopic("kept", "id-kept", 3, Map.of()));
        assertThat(dir.resolve(TopicMetadataDescriptor.FILE_NAME + ".tmp")).doesNotExist();
    }

    @Test
    void flippedByteIsCaughtByTheChecksum() throws IOException
    {
        new TopicMetadataStore(dir).save(List.of(new StoredTopic("orders", "id-orders", 8, Map.of("k", "v"))));
        for (final String name : List.of(TopicMetadataDescriptor.FILE_NAME, TopicMetadataDescriptor.FILE_NAME + ".bak"))
        {
            final Path file = dir.resolve(name);
            final byte[] bytes = Files.readAllBytes(file);
            bytes[14] ^= 0x01;
            Files.write(file, bytes);
        }

        assertThatThrownBy(() -> new TopicMetadataStore(dir).load())
            .isInstanceOf(CorruptFileException.class).hasMessageContaining("fails its checksum");
    }

    @Test
    void truncatedFileIsReportedAsCorrupt() throws IOException
    {
        Files.write(dir.resolve(TopicMetadataDescriptor.FILE_NAME), new byte[] {0, 1, 2});

        assertThatThrownBy(() -> new TopicMetadataStore(dir).load())
            .isInstanceOf(CorruptFileException.class).hasMessageContaining("shorter than its header");
    }

    @Test
    void fileOfAnotherVersionIsReportedAsCorrupt() throws IOException
    {
        final byte[] content = ByteBuffer.allocate(16)
            .putInt(TopicMetadataDescriptor.MAGIC).putInt(3).putInt(0).array();
        final CRC32C crc = new CRC32C();
        crc.update(content, 0, 12);
        ByteBuffer.wrap(content).putInt(12, (int)crc.getValue());
        Files.write(dir.resolve(TopicMetadataDescriptor.FILE_NAME), content);

        assertThatThrownBy(() -> new TopicMetadataStore(dir).load())
            .isInstanceOf(CorruptFileException.class).hasMessageContaining("has version 3");
    }

    @Test
    void aDamagedFileIsReadFromItsCopyAndRewritten() throws IOException
    {
        final List<StoredTopic> topics = List.of(new StoredTopic("orders", "id-orders", 8, Map.of("k", "v")));
        new TopicMetadataStore(dir).save(topics);
        final Path file = dir.resolve(TopicMetadataDescriptor.FILE_NAME);
        final byte[] bytes = Files.readAllBytes(file);
        bytes[14] ^= 0x01;
        Files.write(file, bytes);

        final io.spool.log.CopiedFile.Loaded<List<StoredTopic>> loaded = new TopicMetadataStore(dir).load();
        assertThat(loaded.value()).isEqualTo(topics);
        assertThat(loaded.damage()).contains("fails its checksum");
        assertThat(new TopicMetadataStore(dir).load().fromCopy()).as("the file was rewritten from its copy").isFalse();
    }

    @Test
    void aVersionOneFileReadsWithoutIds() throws IOException
    {
        final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.DataOutputStream out = new java.io.DataOutputStream(bytes))
        {
            out.writeInt(TopicMetadataDescriptor.MAGIC);
            out.writeInt(TopicMetadataDescriptor.VERSION_WITHOUT_IDS);
            out.writeInt(1);
            out.writeUTF("orders");
            out.writeInt(3);
            out.writeInt(1);
            out.writeUTF("retention.ms");
            out.writeUTF("5000");
            final CRC32C crc = new CRC32C();
            crc.update(bytes.toByteArray());
            out.writeInt((int)crc.getValue());
        }
        Files.write(dir.resolve(TopicMetadataDescriptor.FILE_NAME), bytes.toByteArray());

        assertThat(new TopicMetadataStore(dir).load().value())
            .containsExactly(new StoredTopic("orders", null, 3, Map.of("retention.ms", "5000")));
    }

    @Test
    void unknownDurabilityInStoredSettingsIsReportedAsCorrupt()
    {
        assertThatThrownBy(() -> TopicSettings.fromSettings(1, Map.of(TopicSettings.DURABILITY, "sometimes")))
            .isInstanceOf(CorruptFileException.class).hasMessageContaining("unknown durability \"sometimes\"");
    }

    @Test
    void settingsMissingFromAnOlderFileKeepTheirDefaults()
    {
        final TopicConfig config = TopicSettings.fromSettings(3, Map.of(TopicSettings.RETENTION_MS, "5000"));
        assertThat(config.partitions()).isEqualTo(3);
        assertThat(config.log().retentionMillis()).isEqualTo(5000);
        assertThat(config.log().segmentBytes()).isEqualTo(LogConfig.DEFAULT.segmentBytes());
    }
}
