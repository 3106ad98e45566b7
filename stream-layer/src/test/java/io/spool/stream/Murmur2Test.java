package io.spool.stream;

import io.spool.api.stream.Murmur2;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class Murmur2Test
{
    // Vectors from Kafka's UtilsTest.testMurmur2 and from ports checked against Kafka's implementation.
    @ParameterizedTest
    @CsvSource({
        "21, -973932308",
        "foobar, -790332482",
        "a-little-bit-long-string, -985981536",
        "a-little-bit-longer-string, -1486304829",
        "lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8, -58897971",
        "abc, 479470107",
        "1, -1993445489",
        "12, 126087238",
        "123, -267702483",
        "1234, -1614185708",
        "12345, -1188365604",
    })
    void matchesKafkaVectors(final String key, final int expected)
    {
        final byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        assertThat(Murmur2.hash(bytes)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"21", "foobar", "a-little-bit-longer-string", "abc", "1", "12", "123", "1234", "12345"})
    void bufferFormHashesTheSameBytesAtAnyOffset(final String key)
    {
        final byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[bytes.length + 7]);
        buffer.putBytes(5, bytes);
        assertThat(Murmur2.hash(buffer, 5, bytes.length)).isEqualTo(Murmur2.hash(bytes));
    }

    @Test
    void emptyKeyHashesTheSameInBothForms()
    {
        assertThat(Murmur2.hash(new byte[0])).isEqualTo(Murmur2.hash(new UnsafeBuffer(new byte[4]), 2, 0));
    }

    @Test
    void toPositiveClearsTheSignBit()
    {
        assertThat(Murmur2.toPositive(-1)).isEqualTo(Integer.MAX_VALUE);
        assertThat(Murmur2.toPositive(Integer.MIN_VALUE)).isZero();
        assertThat(Murmur2.toPositive(42)).isEqualTo(42);
    }

    @Test
    void keyMapsToKafkaDefaultPartition()
    {
        // toPositive(-790332482) % 16 == 1357151166 % 16
        assertThat(Murmur2.toPositive(Murmur2.hash("foobar".getBytes(StandardCharsets.UTF_8))) % 16)
            .isEqualTo(1357151166 % 16);
    }
}
