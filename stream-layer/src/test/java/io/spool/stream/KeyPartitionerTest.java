package io.spool.stream;

import io.spool.api.stream.KeyPartitioner;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class KeyPartitionerTest
{
    @Test
    void keyGoesWhereKafkaDefaultPartitionerPutsIt()
    {
        // murmur2("foobar") = -790332482, toPositive = 1357151166; 1357151166 % 3 = 0, % 7 = 1
        final byte[] key = "foobar".getBytes(StandardCharsets.UTF_8);
        assertThat(KeyPartitioner.partitionForKey(key, 3)).isEqualTo(1357151166 % 3);
        assertThat(KeyPartitioner.partitionForKey(key, 7)).isEqualTo(1357151166 % 7);
    }

    @Property(tries = 200)
    void bufferAndArrayFormsAgreeAndStayInRange(
        @ForAll @Size(max = 40) final byte[] key, @ForAll @IntRange(min = 1, max = 1000) final int partitions)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[key.length + 3]);
        buffer.putBytes(3, key);

        final int partition = KeyPartitioner.partitionForKey(key, partitions);

        assertThat(KeyPartitioner.partitionForKey(buffer, 3, key.length, partitions)).isEqualTo(partition);
        assertThat(partition).isBetween(0, partitions - 1);
    }

    @Test
    void unkeyedRecordsSpreadInTurn()
    {
        final KeyPartitioner partitioner = new KeyPartitioner();
        final int[] seen = new int[7];
        for (int i = 0; i < 7; i++)
        {
            seen[i] = partitioner.nextSpreadPartition(3);
        }
        assertThat(seen).containsExactly(0, 1, 2, 0, 1, 2, 0);
    }
}
