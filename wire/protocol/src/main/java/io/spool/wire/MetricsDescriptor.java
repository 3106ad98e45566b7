package io.spool.wire;

import io.netty.buffer.ByteBuf;
import io.spool.api.MetricSample;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The body of a METRICS response: the server's figures, each whole, so the client's {@link MetricSample}s are the
 * server's.
 * <pre>
 *  Count (int32), then per sample:
 *    Name (string), Kind (int8: 0 counter, 1 gauge), Help (string),
 *    Label Count (int16), then per label: Name (string), Value (string),
 *    Value (float64)
 * </pre>
 * The request body is empty. Stateless, thread-safe.
 */
public final class MetricsDescriptor
{
    private static final MetricSample.Kind[] KINDS = MetricSample.Kind.values();

    private MetricsDescriptor()
    {
    }

    public static void encode(final ByteBuf out, final List<MetricSample> samples)
    {
        out.writeInt(samples.size());
        for (final MetricSample sample : samples)
        {
            Fields.writeString(out, sample.name());
            out.writeByte(sample.kind().ordinal());
            Fields.writeString(out, sample.help());
            out.writeShort(sample.labels().size());
            for (final Map.Entry<String, String> label : sample.labels().entrySet())
            {
                Fields.writeString(out, label.getKey());
                Fields.writeString(out, label.getValue());
            }
            out.writeDouble(sample.value());
        }
    }

    /** @throws ProtocolException when a sample's kind is unknown. */
    public static List<MetricSample> decode(final ByteBuf in)
    {
        final int count = in.readInt();
        final List<MetricSample> samples = new ArrayList<>(Math.min(count, 1 << 16));
        for (int i = 0; i < count; i++)
        {
            final String name = Fields.readString(in);
            final int kind = in.readByte();
            if (kind < 0 || kind >= KINDS.length)
            {
                throw new ProtocolException(ErrorCode.MALFORMED_FRAME, "metric " + name + " has unknown kind " + kind);
            }
            final String help = Fields.readString(in);
            final int labelCount = in.readShort();
            final Map<String, String> labels = new LinkedHashMap<>();
            for (int l = 0; l < labelCount; l++)
            {
                labels.put(Fields.readString(in), Fields.readString(in));
            }
            samples.add(new MetricSample(name, KINDS[kind], help, labels, in.readDouble()));
        }
        Fields.expectEnd(in);
        return samples;
    }
}
