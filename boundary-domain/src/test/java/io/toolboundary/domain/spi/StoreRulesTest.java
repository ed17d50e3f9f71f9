package io.toolboundary.domain.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.CanonicalRecord.Failed;
import io.toolboundary.domain.CanonicalRecord.Projecting;
import io.toolboundary.domain.CanonicalRecord.Ready;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.toolboundary.domain.spi.StoreRules.Change;
import io.toolboundary.domain.spi.StoreRules.Held;
import io.toolboundary.domain.spi.StoreRules.RunLedger;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The store rules, case by case: one row per kind of held state and caller. */
class StoreRulesTest {

    private static final Instant CREATED = Instant.parse("2025-03-01T10:00:00Z");
    private static final Instant LATER = CREATED.plusMillis(1500);
    private static final String FINGERPRINT = "0123456789abcdef".repeat(4);
    private static final String OTHER_FINGERPRINT = "f".repeat(64);
    private static final Projecting PROJECTING = projecting();
    private static final Ready READY = PROJECTING.ready("raw", found("hit"), LATER);
    private static final Failed FAILED = PROJECTING.failed(ErrorCode.EXECUTION_FAILED, Option.some("raw"), LATER);
    private static final Failed ABANDONED = PROJECTING.failed(ErrorCode.EXECUTION_ABANDONED, Option.none(), LATER);

    private static Projecting projecting() {
        return new Projecting(InvocationKey.of(new RunId("run-1"), new ToolCallId("call_01:a.b")),
                new ToolName("search.logs"), "{\"q\":\"caf\u00e9 \u20ac \ud83d\ude00\"}", FINGERPRINT, CREATED);
    }

    private static AgentResult found(String content) {
        return new AgentResult(content, EvidenceStatus.EVIDENCE_FOUND, Option.none());
    }

    /** Begin's answers: create the record, answer the stored PROJECTING record (a retry), or refuse. */
    private static Either<Refusal, Option<Projecting>> create() {
        return Either.right(Option.none());
    }

    private static Either<Refusal, Option<Projecting>> retry(Projecting stored) {
        return Either.right(Option.some(stored));
    }

    private static <T> Either<Refusal, T> refuse(Refusal refusal) {
        return Either.left(refusal);
    }

    /** A decided change: write the record, or answer it as stored. */
    private static <F extends CanonicalRecord.Final> Either<Refusal, Change<F>> write(F record) {
        return Either.right(new Change<>(record, true));
    }

    private static <F extends CanonicalRecord.Final> Either<Refusal, Change<F>> alreadyFinal(F record) {
        return Either.right(new Change<>(record, false));
    }

    private static Option<Held> held(CanonicalRecord record, boolean sameAttempt) {
        return Option.some(new Held(record, sameAttempt));
    }

    static Stream<Arguments> begins() {
        return Stream.of(
                Arguments.of("nothing held, budgets left", true, Option.none(), Option.none(), FINGERPRINT, 0, 1, 0, 1,
                        create()),
                Arguments.of("a retry of the same attempt while PROJECTING", true, held(PROJECTING, true), Option.none(), FINGERPRINT, 1, 1, 1, 1,
                        retry(PROJECTING)),
                Arguments.of("the same attempt after its record is final", true, held(READY, true), Option.none(), FINGERPRINT, 1, 5, 1, 5,
                        refuse(Refusal.DUPLICATE)),
                Arguments.of("another attempt, same fingerprint", true, held(PROJECTING, false), Option.none(), FINGERPRINT, 1, 5, 1, 5,
                        refuse(Refusal.DUPLICATE)),
                Arguments.of("another attempt, other fingerprint", true, held(FAILED, false), Option.none(), OTHER_FINGERPRINT, 1, 5, 1, 5,
                        refuse(Refusal.ID_REUSED)),
                Arguments.of("a held key wins over spent budgets", true, held(READY, false), Option.none(), FINGERPRINT, 9, 1, 9, 1,
                        refuse(Refusal.DUPLICATE)),
                Arguments.of("run budget spent exactly", true, Option.none(), Option.none(), FINGERPRINT, 3, 3, 0, 10,
                        refuse(Refusal.RUN_BUDGET_EXHAUSTED)),
                Arguments.of("run budget checked before the tool's", true, Option.none(), Option.none(), FINGERPRINT, 3, 3, 3, 3,
                        refuse(Refusal.RUN_BUDGET_EXHAUSTED)),
                Arguments.of("tool budget spent exactly", true, Option.none(), Option.none(), FINGERPRINT, 2, 3, 3, 3,
                        refuse(Refusal.TOOL_BUDGET_EXHAUSTED)),
                Arguments.of("one call left of each", true, Option.none(), Option.none(), FINGERPRINT, 2, 3, 2, 3,
                        create()),
                Arguments.of("the run not held, nothing held", false, Option.none(), Option.none(), FINGERPRINT, 0, 5, 0, 5,
                        refuse(Refusal.RUN_STATE_LOST)),
                Arguments.of("the run not held wins over a retry of the same attempt", false, held(PROJECTING, true), Option.none(),
                        FINGERPRINT, 1, 5, 1, 5, refuse(Refusal.RUN_STATE_LOST)),
                Arguments.of("the run not held wins over a held key", false, held(READY, false), Option.none(), FINGERPRINT, 1, 5, 1, 5,
                        refuse(Refusal.RUN_STATE_LOST)),
                Arguments.of("a call the run began, its record gone, same fingerprint", true, Option.none(),
                        Option.some(FINGERPRINT), FINGERPRINT, 1, 5, 1, 5, refuse(Refusal.DUPLICATE)),
                Arguments.of("a call the run began, its record gone, other fingerprint", true, Option.none(),
                        Option.some(OTHER_FINGERPRINT), FINGERPRINT, 1, 5, 1, 5, refuse(Refusal.ID_REUSED)),
                Arguments.of("the ledger wins over spent budgets", true, Option.none(), Option.some(FINGERPRINT),
                        FINGERPRINT, 9, 1, 9, 1, refuse(Refusal.DUPLICATE)),
                Arguments.of("the held record wins over the ledger", true, held(PROJECTING, true), Option.some(OTHER_FINGERPRINT),
                        FINGERPRINT, 1, 5, 1, 5, retry(PROJECTING)),
                Arguments.of("the run not held wins over the ledger", false, Option.none(), Option.some(FINGERPRINT),
                        FINGERPRINT, 1, 5, 1, 5, refuse(Refusal.RUN_STATE_LOST)),
                Arguments.of("a zero budget", true, Option.none(), Option.none(), FINGERPRINT, 0, 0, 0, 5,
                        refuse(Refusal.RUN_BUDGET_EXHAUSTED)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("begins")
    void decidesABegin(String name, boolean runOpen, Option<Held> held, Option<String> begun, String fingerprint, long runUsed, int runBudget, long toolUsed,
            int toolBudget, Either<Refusal, Option<Projecting>> expected) {
        Option<RunLedger> run = runOpen ? Option.some(new RunLedger(begun, runUsed, toolUsed)) : Option.none();
        assertThat(StoreRules.begin(run, held, fingerprint, runBudget, toolBudget)).isEqualTo(expected);
    }

    static Stream<Arguments> completions() {
        Ready otherContent = PROJECTING.ready("raw", found("other"), LATER);
        Ready otherRecord = new Projecting(PROJECTING.key(), PROJECTING.tool(), "{}", OTHER_FINGERPRINT, CREATED)
                .ready("raw", found("hit"), LATER);
        return Stream.of(
                Arguments.of("PROJECTING, own attempt, READY", held(PROJECTING, true), READY, write(READY)),
                Arguments.of("PROJECTING, own attempt, ERROR", held(PROJECTING, true), FAILED, write(FAILED)),
                Arguments.of("nothing held", Option.none(), READY, refuse(Refusal.EXPIRED)),
                Arguments.of("another attempt's record", held(PROJECTING, false), READY, refuse(Refusal.CONFLICT)),
                Arguments.of("a retry of the same completion", held(READY, true), READY, alreadyFinal(READY)),
                Arguments.of("final with other content", held(READY, true), otherContent, refuse(Refusal.CONFLICT)),
                Arguments.of("final with another status", held(READY, true), FAILED, refuse(Refusal.CONFLICT)),
                Arguments.of("abandoned meanwhile", held(ABANDONED, true), READY, refuse(Refusal.CONFLICT)),
                Arguments.of("completed from another PROJECTING record", held(PROJECTING, true), otherRecord,
                        refuse(Refusal.CONFLICT)),
                Arguments.of("nothing held, the same attempt's ERROR", Option.none(), FAILED, refuse(Refusal.EXPIRED)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("completions")
    void decidesACompletion(String name, Option<Held> held, CanonicalRecord.Final completed,
            Either<Refusal, Change<CanonicalRecord.Final>> expected) {
        assertThat(StoreRules.complete(held, completed)).isEqualTo(expected);
    }

    static Stream<Arguments> ends() {
        return Stream.of(
                Arguments.of("PROJECTING, own attempt", held(PROJECTING, true),
                        write(PROJECTING.failed(ErrorCode.STORE_OUTCOME_UNKNOWN, Option.none(), LATER))),
                Arguments.of("its completion landed first", held(READY, true), alreadyFinal(READY)),
                Arguments.of("nothing held", Option.none(), refuse(Refusal.EXPIRED)),
                Arguments.of("another attempt's record", held(PROJECTING, false), refuse(Refusal.CONFLICT)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ends")
    void decidesAnEndByToken(String name, Option<Held> held, Either<Refusal, Change<CanonicalRecord.Final>> expected) {
        assertThat(StoreRules.end(held, ErrorCode.STORE_OUTCOME_UNKNOWN, LATER)).isEqualTo(expected);
    }

    @Test
    void anEndedRecordKeepsNoRawResponse() {
        Change<CanonicalRecord.Final> change = StoreRules.end(held(PROJECTING, true), ErrorCode.STORE_FULL, LATER).get();
        CanonicalRecord.Final ended = change.record();

        assertThat(change.write()).isTrue();
        assertThat(ended).isInstanceOf(Failed.class);
        assertThat(ended.begun()).isSameAs(PROJECTING);
        assertThat(ended.rawResponse()).isEmpty();
        assertThat(ended.errorCode()).contains(ErrorCode.STORE_FULL);
    }

    static Stream<Arguments> abandonments() {
        return Stream.of(
                Arguments.of("PROJECTING past its lease", Option.some(PROJECTING), true, write(ABANDONED)),
                Arguments.of("PROJECTING within its lease", Option.some(PROJECTING), false,
                        refuse(Refusal.LEASE_NOT_EXPIRED)),
                Arguments.of("abandoned before (a retry)", Option.some(ABANDONED), true, alreadyFinal(ABANDONED)),
                Arguments.of("READY", Option.some(READY), true, refuse(Refusal.CONFLICT)),
                Arguments.of("ERROR with another code", Option.some(FAILED), true, refuse(Refusal.CONFLICT)),
                Arguments.of("nothing held", Option.none(), true, refuse(Refusal.EXPIRED)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("abandonments")
    void decidesAnAbandonment(String name, Option<CanonicalRecord> held, boolean leasePassed,
            Either<Refusal, Change<Failed>> expected) {
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
        Option<RunLedger> open = Option.some(new RunLedger(Option.none(), 0, 0));
        assertThatNullPointerException().isThrownBy(() -> StoreRules.begin(Option.none(), null, FINGERPRINT, 1, 1));
        assertThatNullPointerException().isThrownBy(() -> StoreRules.begin(
                Option.some(new RunLedger(null, 0, 0)), Option.none(), FINGERPRINT, 1, 1));
        assertThatNullPointerException().isThrownBy(() -> StoreRules.begin(null, Option.none(), FINGERPRINT, 1, 1));
        assertThatNullPointerException().isThrownBy(() -> StoreRules.begin(open, null, FINGERPRINT, 1, 1));
        assertThatNullPointerException().isThrownBy(() -> StoreRules.begin(open, Option.none(), null, 1, 1));
        assertThatNullPointerException().isThrownBy(() -> StoreRules.complete(Option.none(), null));
        assertThatNullPointerException().isThrownBy(() -> StoreRules.complete(null, READY));
        assertThatNullPointerException().isThrownBy(() -> StoreRules.end(null, ErrorCode.STORE_FULL, LATER));
        assertThatNullPointerException().isThrownBy(() -> StoreRules.end(Option.none(), ErrorCode.STORE_FULL, null));
        assertThatNullPointerException().isThrownBy(() -> StoreRules.abandon(null, true, LATER));
        assertThatNullPointerException().isThrownBy(() -> new Change<>(null, true));
        assertThatNullPointerException().isThrownBy(() -> StoreRules.end(Option.none(), null, LATER));
        assertThatNullPointerException().isThrownBy(() -> StoreRules.abandon(Option.none(), true, null));
        assertThatNullPointerException().isThrownBy(() -> new Held(null, true));
    }
}
