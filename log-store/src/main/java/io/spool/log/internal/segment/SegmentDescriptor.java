package io.spool.log.internal.segment;

import io.spool.api.log.LogConfig;

/**
 * Layout of a segment file and of the two index files beside it.
 * <pre>
 * Segment file NNNNNNNNNNNNNNNNNNNN.log (base offset, 20 digits):
 *  +---------------------------------------------------------------+
 *  |                  Magic "SPOOLSEG" (8 bytes)                   |  0
 *  +---------------------------------------------------------------+
 *  |                      File Version                             |  8
 *  +---------------------------------------------------------------+
 *  |                       Reserved                                | 12
 *  +---------------------------------------------------------------+
 *  |                      Base Offset                              | 16
 *  +---------------------------------------------------------------+
 *  |                 Reserved up to byte 64                       ... 24
 *  +---------------------------------------------------------------+
 *  |                Frames (see RecordDescriptor)                 ... 64
 *  +---------------------------------------------------------------+
 *
 * Offset index NNNNNNNNNNNNNNNNNNNN.index: 16-byte header (magic "SPOOLIDX", version, entry length), then entries
 *  | relative offset (int) | position of that record in the segment (int) |
 * Time index NNNNNNNNNNNNNNNNNNNN.timeindex: 16-byte header (magic "SPOOLTIX", version, entry length), then entries
 *  | largest timestamp so far (long) | relative offset of the record that set it (int) | unused (int) |
 * </pre>
 * Indexes are sparse, never checksummed, and rebuilt from the segment whenever they disagree with it.
 */
public final class SegmentDescriptor
{
    public static final long SEGMENT_MAGIC = 0x4745_534C_4F4F_5053L; // "SPOOLSEG" little-endian
    public static final long OFFSET_INDEX_MAGIC = 0x5844_494C_4F4F_5053L; // "SPOOLIDX"
    public static final long TIME_INDEX_MAGIC = 0x5849_544C_4F4F_5053L; // "SPOOLTIX"
    public static final int FILE_VERSION = 1;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 8;
    public static final int BASE_OFFSET_OFFSET = 16;
    public static final int HEADER_LENGTH = LogConfig.SEGMENT_HEADER_BYTES;

    public static final int INDEX_HEADER_LENGTH = 16;
    public static final int INDEX_ENTRY_LENGTH_OFFSET = 12;
    public static final int OFFSET_INDEX_ENTRY_LENGTH = 8;
    public static final int TIME_INDEX_ENTRY_LENGTH = 16;

    public static final String LOG_SUFFIX = ".log";
    public static final String OFFSET_INDEX_SUFFIX = ".index";
    public static final String TIME_INDEX_SUFFIX = ".timeindex";

    private SegmentDescriptor()
    {
    }

    public static String fileName(final long baseOffset, final String suffix)
    {
        return String.format("%020d%s", baseOffset, suffix);
    }

    /**
     * The base offset a segment file name stands for, or -1 when the name is not a segment's.
     */
    public static long baseOffsetOf(final String fileName)
    {
        if (!fileName.endsWith(LOG_SUFFIX) || fileName.length() != 20 + LOG_SUFFIX.length())
        {
            return -1;
        }
        long value = 0;
        for (int i = 0; i < 20; i++)
        {
            final char c = fileName.charAt(i);
            if (c < '0' || c > '9')
            {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value < 0 ? -1 : value;
    }
}
