package io.spool.queue;

import io.spool.api.InvalidRequestException;
import io.spool.api.queue.Receipt;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReceiptTest
{
    @Test
    void binaryFormRoundTripsAtAnyIndex()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final Receipt receipt = new Receipt(0x0123_4567_89ab_cdefL, 12, 9_876_543_210L, 4);
        receipt.encode(buffer, 5);

        assertThat(Receipt.decode(buffer, 5)).isEqualTo(receipt);
        assertThat(Receipt.decodeIssuer(buffer, 5)).isEqualTo(0x0123_4567_89ab_cdefL);
        assertThat(Receipt.decodeOffset(buffer, 5)).isEqualTo(9_876_543_210L);
        assertThat(Receipt.decodePartition(buffer, 5)).isEqualTo(12);
        assertThat(Receipt.decodeDeliveryNumber(buffer, 5)).isEqualTo(4);
        assertThat(buffer.getByte(5 + Receipt.ENCODED_LENGTH)).isZero();
    }

    @Test
    void receiptsOfDifferentIssuersDiffer()
    {
        assertThat(new Receipt(1, 0, 5, 1)).isNotEqualTo(new Receipt(2, 0, 5, 1));
    }

    @Test
    void tokenFormRoundTrips()
    {
        final Receipt receipt = new Receipt(-2, 3, Long.MAX_VALUE, Integer.MAX_VALUE);

        assertThat(receipt.toToken()).isEqualTo("fffffffffffffffe.3.7fffffffffffffff.7fffffff");
        assertThat(Receipt.parseToken(receipt.toToken())).isEqualTo(receipt);
        assertThat(receipt.toString()).as("the issuer stays out of logs").doesNotContain("fffffffffffffffe")
            .doesNotContain("-2");
    }

    @Test
    void malformedTokensAndValuesAreRefused()
    {
        assertThatThrownBy(() -> Receipt.parseToken("1.2.3"))
            .as("a token without its issuer").isInstanceOf(InvalidRequestException.class).hasMessageContaining("'1.2.3'");
        assertThatThrownBy(() -> Receipt.parseToken("9.1.zz.1"))
            .isInstanceOf(InvalidRequestException.class).hasMessageContaining("issuer.partition.offset.delivery");
        assertThatThrownBy(() -> Receipt.parseToken(null)).isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> Receipt.parseToken("9.1.ffffffffffffffff.1"))
            .isInstanceOf(InvalidRequestException.class).hasMessageContaining("offset >= 0");
        assertThatThrownBy(() -> new Receipt(9, 0, 0, 0))
            .isInstanceOf(InvalidRequestException.class).hasMessageContaining("delivery >= 1");
        final UnsafeBuffer zeros = new UnsafeBuffer(new byte[Receipt.ENCODED_LENGTH]);
        assertThatThrownBy(() -> Receipt.decode(zeros, 0)).isInstanceOf(InvalidRequestException.class);
    }
}
