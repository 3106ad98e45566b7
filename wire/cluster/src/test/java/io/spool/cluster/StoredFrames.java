package io.spool.cluster;

import io.spool.Spool;
import io.spool.log.LogReader;
import io.spool.log.PartitionLog;
import io.spool.log.RecordView;

import java.util.ArrayList;
import java.util.List;

/** Every record frame of a partition log as stored, byte for byte, by offset from the log's start. */
final class StoredFrames
{
    private StoredFrames()
    {
    }

    static List<byte[]> of(final Spool engine, final String topic, final int partition)
    {
        final PartitionLog log = engine.streams().topics().topic(topic).partition(partition);
        final List<byte[]> frames = new ArrayList<>();
        try (LogReader reader = log.newReader())
        {
            RecordView record;
            while ((record = reader.next()) != null)
            {
                final byte[] frame = new byte[record.frameLength()];
                record.buffer().getBytes(record.frameOffset(), frame);
                frames.add(frame);
            }
        }
        return frames;
    }
}
