package io.spool.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.spool.api.EngineClosedException;
import io.spool.api.SpoolException;
import io.spool.api.log.BackPressureException;
import io.spool.api.log.OffsetOutOfRangeException;
import io.spool.api.log.RecordTooLargeException;
import io.spool.api.queue.AlreadySettledException;
import io.spool.api.queue.InvalidSettingsException;
import io.spool.api.queue.QueueException;
import io.spool.api.queue.StaleReceiptException;
import io.spool.api.queue.SubscriptionExistsException;
import io.spool.api.queue.UnknownDeliveryException;
import io.spool.api.queue.UnknownSubscriptionException;
import io.spool.api.routing.UnknownExchangeException;
import io.spool.api.stream.CommitFailedException;
import io.spool.api.stream.IllegalClientStateException;
import io.spool.api.stream.InvalidGroupException;
import io.spool.api.stream.InvalidTopicException;
import io.spool.api.stream.NoOffsetForPartitionException;
import io.spool.api.stream.PartitionNotAssignedException;
import io.spool.api.stream.StreamException;
import io.spool.api.stream.TopicExistsException;
import io.spool.api.stream.UnknownMemberException;
import io.spool.api.stream.UnknownPartitionException;
import io.spool.api.stream.UnknownTopicException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ErrorCodeTest
{
    static List<Throwable> engineErrors()
    {
        return List.of(
            new OffsetOutOfRangeException("topics/orders/3", 99, 10, 50),
            new RecordTooLargeException("topics/orders/0", 2_000_000, 1_048_576),
            new EngineClosedException("log topics/orders/0"),
            new BackPressureException("the pipeline is full"),
            new UnknownTopicException("topic \"x\" does not exist"),
            new InvalidTopicException("bad name"),
            new TopicExistsException("taken"),
            new UnknownPartitionException("no partition 9"),
            new io.spool.api.InvalidRequestException("maxRecords must be positive"),
            new UnknownMemberException("member gone"),
            new InvalidGroupException("no topics"),
            new CommitFailedException("not the owner"),
            new PartitionNotAssignedException("not assigned"),
            new NoOffsetForPartitionException("no offset"),
            new IllegalClientStateException("closed consumer"),
            new io.spool.api.stream.UnknownGroupException("no consumer group \"billing\""),
            new UnknownSubscriptionException("billing"),
            new SubscriptionExistsException("billing", "orders"),
            new StaleReceiptException("delivery 2 replaced delivery 1"),
            new UnknownDeliveryException("never delivered"),
            new AlreadySettledException("acked already"),
            new InvalidSettingsException("lock timeout"),
            new UnknownExchangeException("orders-x"),
            new io.spool.api.routing.InvalidRoutingException("exchange 'x' already exists as DIRECT"),
            new io.spool.api.queue.QueueFullException("billing", "subscription billing of topic orders is full"),
            new StreamException("some stream failure"),
            new QueueException("some queue failure"),
            new SpoolException("some engine failure"),
            new IllegalArgumentException("bad argument"),
            new AuthenticationException("wrong token"),
            new ProtocolException(ErrorCode.UNKNOWN_OPERATION, "unknown operation 0x7f"));
    }

    @ParameterizedTest
    @MethodSource("engineErrors")
    void theClientRebuildsTheSameExceptionTypeAndMessage(final Throwable error)
    {
        final RuntimeException rebuilt = roundTrip(error);

        assertThat(rebuilt).isExactlyInstanceOf(error.getClass()).hasMessage(error.getMessage());
    }

    @Test
    void offsetOutOfRangeKeepsItsOffsets()
    {
        final OffsetOutOfRangeException rebuilt = (OffsetOutOfRangeException)roundTrip(
            new OffsetOutOfRangeException("topics/orders/3", 99, 10, 50));

        assertThat(rebuilt.requestedOffset()).isEqualTo(99);
        assertThat(rebuilt.earliestOffset()).isEqualTo(10);
        assertThat(rebuilt.endOffset()).isEqualTo(50);
    }

    @Test
    void everyCodeHasAnEngineErrorOrIsAProtocolError()
    {
        final Set<ErrorCode> covered = EnumSet.noneOf(ErrorCode.class);
        engineErrors().forEach(error -> covered.add(ErrorCode.of(error)));
        final Set<ErrorCode> protocol = EnumSet.of(ErrorCode.INTERNAL, ErrorCode.MALFORMED_FRAME,
            ErrorCode.UNSUPPORTED_VERSION, ErrorCode.FRAME_TOO_LARGE, ErrorCode.NOT_AUTHENTICATED,
            ErrorCode.TOO_MANY_CONNECTIONS);

        assertThat(EnumSet.complementOf(EnumSet.copyOf(covered))).isEqualTo(protocol);
    }

    @Test
    void anUnexpectedFailureIsInternalAndAnUnknownCodeReadsAsInternal()
    {
        assertThat(ErrorCode.of(new NullPointerException("oops"))).isEqualTo(ErrorCode.INTERNAL);
        assertThat(roundTrip(new NullPointerException("oops"))).isExactlyInstanceOf(SpoolException.class)
            .hasMessage("oops");
        assertThat(ErrorCode.fromCode(127)).isEqualTo(ErrorCode.INTERNAL);
    }

    private static RuntimeException roundTrip(final Throwable error)
    {
        final ByteBuf frame = Unpooled.buffer();
        ErrorDescriptor.encode(frame, OpCode.FETCH, 42, error);
        assertThat(FrameDescriptor.isError(FrameDescriptor.flags(frame))).isTrue();
        assertThat(FrameDescriptor.correlationId(frame)).isEqualTo(42);
        frame.skipBytes(FrameDescriptor.HEADER_LENGTH);
        try
        {
            return ErrorDescriptor.decode(frame);
        }
        finally
        {
            frame.release();
        }
    }
}
