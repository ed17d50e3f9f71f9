package io.toolboundary.adapter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.Referencability;
import io.vavr.control.Either;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** How a record may be cited, read from the start of its head as referencability.lua cuts it; anything else is invalid. */
class RecordHeadTest {

    @Test
    void readsTheStatusAndOutcome() {
        assertThat(RecordCodec.referencability("5|R|token-1|120000|1900000000.000000001|1900000001|F|"))
                .isEqualTo(Either.right(Referencability.CITABLE_EVIDENCE));
        assertThat(RecordCodec.referencability("5|R|token-1||1900000000|1900000001|N|"))
                .isEqualTo(Either.right(Referencability.SCOPED_NEGATIVE_OBSERVATION));
        assertThat(RecordCodec.referencability("5|E|token-1|120000|1900000000|1900000001|EXECUTION_FAILED|"))
                .isEqualTo(Either.right(Referencability.NOT_REFERENCABLE));
        assertThat(RecordCodec.referencability("5|P|token-1|120000|1900000000|||"))
                .isEqualTo(Either.right(Referencability.NOT_REFERENCABLE));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "5|R|t|1|2|3|F", "4|R|t|1|2|3|F|", "5|R|t|1|2|3|X|", "5|P|t|1|2||F|",
        "5|E|t|1|2|3|NOT_A_CODE|", "5|Q|t|1|2|3|F|", "5|R|t|1|2|3|F|tool", "5|R|t|1|2|3||"})
    void refusesAnythingElseAsInvalidData(String head) {
        assertThat(RecordCodec.referencability(head).mapLeft(StoreFailure::kind))
                .isEqualTo(Either.left(StoreFailure.dataInvalid().kind()));
    }
}
