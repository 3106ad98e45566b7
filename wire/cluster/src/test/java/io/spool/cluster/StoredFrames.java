package io.spool.cluster;

import io.spool.Spool;
import io.spool.api.log.RecordView;
import io.spool.log.LogReader;
import io.spool.log.PartitionLog;

import java.util.ArrayList;
import java.util.List;

import static java.nio.charset.StandardCharsets.UTF_8;

/** Every record of a partition log as stored: its offset, its frame byte for byte, and its value as text. */
final class StoredFrames
{
    record Stored(long offset, byte[] frame, String value)
    {
    }

    private StoredFrames()
    {
    }

    static List<byte[]> of(final Spool engine, final String topic, final int partition)
    {
        return records(engine, topic, partition).stream().map(Stored::frame).toList();
    }

    static List<Stored> records(final Spool engine, final String topic, final int partition)
    {
        final PartitionLog log = engine.streams().topics().topic(topic).partition(partition);
        final List<Stored> records = new ArrayList<>();
        try (LogReader reader = log.newReader())
        {
            RecordView record;
            while ((record = reader.next()) != null)
            {
                final byte[] frame = new byte[record.frameLength()];
                record.buffer().getBytes(record.frameOffset(), frame);
                records.add(new Stored(record.offset(), frame, new String(record.valueBytes(), UTF_8)));
            }
        }
        return records;
    }
}
