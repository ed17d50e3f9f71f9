package io.toolboundary.domain;

import static io.toolboundary.domain.CanonicalRecordTest.LATER;
import static io.toolboundary.domain.CanonicalRecordTest.UNBOUNDED;
import static io.toolboundary.domain.CanonicalRecordTest.found;
import static io.toolboundary.domain.CanonicalRecordTest.projecting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import io.toolboundary.domain.CanonicalRecord.Failed;
import io.toolboundary.domain.CanonicalRecord.Projecting;
import io.toolboundary.domain.CanonicalRecord.Ready;
import io.toolboundary.domain.StoreRules.Held;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The store rules, case by case: one row per kind of held state and caller. */
class StoreRulesTest {

    private static final String FINGERPRINT = projecting().requestFingerprint();
    private static final String OTHER_FINGERPRINT = "f".repeat(64);
    private static final Projecting PROJECTING = projecting();
    private static final Ready READY = PROJECTING.ready("raw", found("hit"), LATER, UNBOUNDED).get();
    private static final Failed FAILED = PROJECTING.failed(ErrorCode.EXECUTION_FAILED, Option.some("raw"), LATER);
    private static final Failed ABANDONED = PROJECTING.failed(ErrorCode.EXECUTION_ABANDONED, Option.none(), LATER);

    private static Option<Held> held(CanonicalRecord record, boolean sameAttempt) {
        return Option.some(new Held(record, sameAttempt));
    }

    private static <T> Either<BoundaryError, T> refused(ErrorCode code) {
        return Either.left(BoundaryError.of(code));
    }

    static Stream<Arguments> begins() {
        return Stream.of(
                Arguments.of("nothing held, budgets left", true, Option.none(), Option.none(), FINGERPRINT, 0, 1, 0, 1,
                        Either.right(Option.none())),
                Arguments.of("a retry of the same attempt while PROJECTING", true, held(PROJECTING, true), Option.none(), FINGERPRINT, 1, 1, 1, 1,
                        Either.right(Option.some(PROJECTING))),
                Arguments.of("the same attempt after its record is final", true, held(READY, true), Option.none(), FINGERPRINT, 1, 5, 1, 5,
                        refused(ErrorCode.DUPLICATE_TOOL_CALL)),
                Arguments.of("another attempt, same fingerprint", true, held(PROJECTING, false), Option.none(), FINGERPRINT, 1, 5, 1, 5,
                        refused(ErrorCode.DUPLICATE_TOOL_CALL)),
                Arguments.of("another attempt, other fingerprint", true, held(FAILED, false), Option.none(), OTHER_FINGERPRINT, 1, 5, 1, 5,
                        refused(ErrorCode.TOOL_CALL_ID_REUSED)),
                Arguments.of("a held key wins over spent budgets", true, held(READY, false), Option.none(), FINGERPRINT, 9, 1, 9, 1,
                        refused(ErrorCode.DUPLICATE_TOOL_CALL)),
                Arguments.of("run budget spent exactly", true, Option.none(), Option.none(), FINGERPRINT, 3, 3, 0, 10,
                        refused(ErrorCode.RUN_BUDGET_EXHAUSTED)),
                Arguments.of("run budget checked before the tool's", true, Option.none(), Option.none(), FINGERPRINT, 3, 3, 3, 3,
                        refused(ErrorCode.RUN_BUDGET_EXHAUSTED)),
                Arguments.of("tool budget spent exactly", true, Option.none(), Option.none(), FINGERPRINT, 2, 3, 3, 3,
                        refused(ErrorCode.TOOL_BUDGET_EXHAUSTED)),
                Arguments.of("one call left of each", true, Option.none(), Option.none(), FINGERPRINT, 2, 3, 2, 3,
                        Either.right(Option.none())),
                Arguments.of("the run not held, nothing held", false, Option.none(), Option.none(), FINGERPRINT, 0, 5, 0, 5,
                        refused(ErrorCode.RUN_STATE_LOST)),
                Arguments.of("the run not held wins over a retry of the same attempt", false, held(PROJECTING, true), Option.none(),
                        FINGERPRINT, 1, 5, 1, 5, refused(ErrorCode.RUN_STATE_LOST)),
                Arguments.of("the run not held wins over a held key", false, held(READY, false), Option.none(), FINGERPRINT, 1, 5, 1, 5,
                        refused(ErrorCode.RUN_STATE_LOST)),
                Arguments.of("a call the run began, its record gone, same fingerprint", true, Option.none(),
                        Option.some(FINGERPRINT), FINGERPRINT, 1, 5, 1, 5, refused(ErrorCode.DUPLICATE_TOOL_CALL)),
                Arguments.of("a call the run began, its record gone, other fingerprint", true, Option.none(),
                        Option.some(OTHER_FINGERPRINT), FINGERPRINT, 1, 5, 1, 5, refused(ErrorCode.TOOL_CALL_ID_REUSED)),
                Arguments.of("the ledger wins over spent budgets", true, Option.none(), Option.some(FINGERPRINT),
                        FINGERPRINT, 9, 1, 9, 1, refused(ErrorCode.DUPLICATE_TOOL_CALL)),
                Arguments.of("the held record wins over the ledger", true, held(PROJECTING, true), Option.some(OTHER_FINGERPRINT),
                        FINGERPRINT, 1, 5, 1, 5, Either.right(Option.some(PROJECTING))),
                Arguments.of("the run not held wins over the ledger", false, Option.none(), Option.some(FINGERPRINT),
                        FINGERPRINT, 1, 5, 1, 5, refused(ErrorCode.RUN_STATE_LOST)),
                Arguments.of("a zero budget", true, Option.none(), Option.none(), FINGERPRINT, 0, 0, 0, 5,
                        refused(ErrorCode.RUN_BUDGET_EXHAUSTED)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("begins")
    void decidesABegin(String name, boolean runOpen, Option<Held> held, Option<String> begun, String fingerprint, long runUsed, int runBudget, long toolUsed,
            int toolBudget, Either<BoundaryError, Option<Projecting>> expected) {
        assertThat(StoreRules.begin(runOpen, held, begun, fingerprint, runUsed, runBudget, toolUsed, toolBudget)).isEqualTo(expected);
    }

    static Stream<Arguments> completions() {
        Ready otherContent = PROJECTING.ready("raw", found("other"), LATER, UNBOUNDED).get();
        return Stream.of(
                Arguments.of("PROJECTING, own attempt, READY", held(PROJECTING, true), READY, Either.right(READY)),
                Arguments.of("PROJECTING, own attempt, ERROR", held(PROJECTING, true), FAILED, Either.right(FAILED)),
                Arguments.of("nothing held", Option.none(), READY, refused(ErrorCode.RECORD_EXPIRED)),
                Arguments.of("another attempt's record", held(PROJECTING, false), READY, refused(ErrorCode.RECORD_CONFLICT)),
                Arguments.of("a retry of the same completion", held(READY, true), READY, Either.right(READY)),
                Arguments.of("final with other content", held(READY, true), otherContent, refused(ErrorCode.RECORD_CONFLICT)),
                Arguments.of("final with another status", held(READY, true), FAILED, refused(ErrorCode.RECORD_CONFLICT)),
                Arguments.of("abandoned meanwhile", held(ABANDONED, true), READY, refused(ErrorCode.RECORD_CONFLICT)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("completions")
    void decidesACompletion(String name, Option<Held> held, CanonicalRecord.Final outcome,
            Either<BoundaryError, CanonicalRecord.Final> expected) {
        assertThat(StoreRules.complete(held, outcome.outcome())).isEqualTo(expected);
    }

    @Test
    void anOutcomeIsWhatTheCompletionAddsToItsRecord() {
        assertThat(READY.outcome()).isEqualTo(new Outcome.Ready(READY.raw(), READY.result(), READY.updatedAt()));
        assertThat(FAILED.outcome()).isEqualTo(new Outcome.Failed(FAILED.code(), FAILED.rawResponse(), FAILED.updatedAt()));
        assertThat(PROJECTING.complete(READY.outcome())).isEqualTo(READY);
        assertThat(PROJECTING.complete(FAILED.outcome())).isEqualTo(FAILED);
        assertThat(PROJECTING.byteSize() + READY.outcome().byteSize()).isEqualTo(READY.byteSize());
        assertThat(PROJECTING.byteSize() + FAILED.outcome().byteSize()).isEqualTo(FAILED.byteSize());
        assertThatNullPointerException().isThrownBy(() -> new Outcome.Ready(null, READY.result(), LATER));
        assertThatNullPointerException().isThrownBy(() -> new Outcome.Failed(ErrorCode.STORE_FULL, null, LATER));
        assertThatNullPointerException().isThrownBy(() -> PROJECTING.complete(null));
    }

    static Stream<Arguments> ends() {
        return Stream.of(
                Arguments.of("PROJECTING, own attempt", held(PROJECTING, true),
                        Either.right(PROJECTING.failed(ErrorCode.STORE_OUTCOME_UNKNOWN, Option.none(), LATER))),
                Arguments.of("its completion landed first", held(READY, true), Either.right(READY)),
                Arguments.of("nothing held", Option.none(), refused(ErrorCode.RECORD_EXPIRED)),
                Arguments.of("another attempt's record", held(PROJECTING, false), refused(ErrorCode.RECORD_CONFLICT)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ends")
    void decidesAnEndByToken(String name, Option<Held> held, Either<BoundaryError, CanonicalRecord.Final> expected) {
        assertThat(StoreRules.end(held, ErrorCode.STORE_OUTCOME_UNKNOWN, LATER)).isEqualTo(expected);
    }

    @Test
    void anEndedRecordKeepsNoRawResponse() {
        CanonicalRecord.Final ended = StoreRules.end(held(PROJECTING, true), ErrorCode.STORE_FULL, LATER).get();

        assertThat(ended).isInstanceOf(Failed.class);
        assertThat(ended.rawResponse()).isEmpty();
        assertThat(ended.errorCode()).contains(ErrorCode.STORE_FULL);
    }

    static Stream<Arguments> abandonments() {
        return Stream.of(
                Arguments.of("PROJECTING past its lease", Option.some(PROJECTING), true, Either.right(ABANDONED)),
                Arguments.of("PROJECTING within its lease", Option.some(PROJECTING), false,
                        refused(ErrorCode.LEASE_NOT_EXPIRED)),
                Arguments.of("abandoned before (a retry)", Option.some(ABANDONED), true, Either.right(ABANDONED)),
                Arguments.of("READY", Option.some(READY), true, refused(ErrorCode.RECORD_CONFLICT)),
                Arguments.of("ERROR with another code", Option.some(FAILED), true, refused(ErrorCode.RECORD_CONFLICT)),
                Arguments.of("nothing held", Option.none(), true, refused(ErrorCode.RECORD_EXPIRED)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("abandonments")
    void decidesAnAbandonment(String name, Option<CanonicalRecord> held, boolean leasePassed,
            Either<BoundaryError, Failed> expected) {
        assertThat(StoreRules.abandon(held, leasePassed, LATER)).isEqualTo(expected);
    }

    @Test
    void anOpenRunKeepsTheTokenItWasOpenedWith() {
        assertThat(StoreRules.openRun(Option.none(), "offered")).isEqualTo("offered");
        assertThat(StoreRules.openRun(Option.some("held"), "offered")).isEqualTo("held");
        assertThatNullPointerException().isThrownBy(() -> StoreRules.openRun(null, "offered"));
        assertThatNullPointerException().isThrownBy(() -> StoreRules.openRun(Option.none(), null));
    }

    @Test
    void refusesNullArguments() {
        assertThatNullPointerException().isThrownBy(() -> StoreRules.begin(true, null, Option.none(), FINGERPRINT, 0, 1, 0, 1));
        assertThatNullPointerException().isThrownBy(() -> StoreRules.begin(true, Option.none(), null, FINGERPRINT, 0, 1, 0, 1));
        assertThatNullPointerException().isThrownBy(() -> StoreRules.complete(Option.none(), null));
        assertThatNullPointerException().isThrownBy(() -> StoreRules.end(Option.none(), null, LATER));
        assertThatNullPointerException().isThrownBy(() -> StoreRules.abandon(Option.none(), true, null));
        assertThatNullPointerException().isThrownBy(() -> new Held(null, true));
    }
}
