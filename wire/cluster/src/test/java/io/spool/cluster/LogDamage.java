package io.spool.cluster;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/** Damages a stopped node's Spool log as a torn write would, so that its recovery cuts the log there. */
final class LogDamage
{
    private LogDamage()
    {
    }

    /** Changes a byte of the record holding {@code value} in the topic's segment, so its checksum fails. */
    static void damage(final Path node, final String topic, final String value) throws IOException
    {
        final Path segment;
        try (Stream<Path> files = Files.walk(node.resolve("log")))
        {
            segment = files.filter(file -> file.toString().endsWith(".log") && file.toString().contains(topic))
                .findFirst().orElseThrow();
        }
        final byte[] bytes = Files.readAllBytes(segment);
        final int at = indexOf(bytes, value.getBytes(UTF_8));
        assertThat(at).as("%s in %s", value, segment).isPositive();
        try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.WRITE))
        {
            channel.write(ByteBuffer.wrap(new byte[] {(byte)~bytes[at]}), at);
            channel.force(true);
        }
    }

    private static int indexOf(final byte[] bytes, final byte[] wanted)
    {
        outer:
        for (int i = 0; i <= bytes.length - wanted.length; i++)
        {
            for (int j = 0; j < wanted.length; j++)
            {
                if (bytes[i + j] != wanted[j])
                {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
