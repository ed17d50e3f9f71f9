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
import io.toolboundary.domain.StoreRules.Begin;
import io.toolboundary.domain.StoreRules.BeginFacts;
import io.toolboundary.domain.StoreRules.Change;
import io.toolboundary.domain.StoreRules.Held;
import io.toolboundary.domain.StoreRules.RunLedger;
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
    private static final Ready READY = CanonicalRecordTest.ready(PROJECTING, "raw", found("hit"), LATER, UNBOUNDED).get();
    private static final Failed FAILED = PROJECTING.failed(ErrorCode.EXECUTION_FAILED, Option.some(CanonicalRecordTest.raw("raw")), LATER);
    private static final Failed ABANDONED = PROJECTING.failed(ErrorCode.EXECUTION_ABANDONED, Option.none(), LATER);

    private static Option<Held> held(CanonicalRecord record, boolean sameAttempt) {
        return Option.some(new Held(record, sameAttempt));
    }

    static Stream<Arguments> begins() {
        return Stream.of(
                Arguments.of("nothing held, budgets left", true, Option.none(), Option.none(), FINGERPRINT, 0, 1, 0, 1,
                        new Begin.Create()),
                Arguments.of("a retry of the same attempt while PROJECTING", true, held(PROJECTING, true), Option.none(), FINGERPRINT, 1, 1, 1, 1,
                        new Begin.Retry(PROJECTING)),
                Arguments.of("the same attempt after its record is final", true, held(READY, true), Option.none(), FINGERPRINT, 1, 5, 1, 5,
                        new Begin.Refuse(new Refusal.Duplicate())),
                Arguments.of("another attempt, same fingerprint", true, held(PROJECTING, false), Option.none(), FINGERPRINT, 1, 5, 1, 5,
                        new Begin.Refuse(new Refusal.Duplicate())),
                Arguments.of("another attempt, other fingerprint", true, held(FAILED, false), Option.none(), OTHER_FINGERPRINT, 1, 5, 1, 5,
                        new Begin.Refuse(new Refusal.IdReused())),
                Arguments.of("a held key wins over spent budgets", true, held(READY, false), Option.none(), FINGERPRINT, 9, 1, 9, 1,
                        new Begin.Refuse(new Refusal.Duplicate())),
                Arguments.of("run budget spent exactly", true, Option.none(), Option.none(), FINGERPRINT, 3, 3, 0, 10,
                        new Begin.Refuse(new Refusal.BudgetExhausted(Refusal.Scope.RUN))),
                Arguments.of("run budget checked before the tool's", true, Option.none(), Option.none(), FINGERPRINT, 3, 3, 3, 3,
                        new Begin.Refuse(new Refusal.BudgetExhausted(Refusal.Scope.RUN))),
                Arguments.of("tool budget spent exactly", true, Option.none(), Option.none(), FINGERPRINT, 2, 3, 3, 3,
                        new Begin.Refuse(new Refusal.BudgetExhausted(Refusal.Scope.TOOL))),
                Arguments.of("one call left of each", true, Option.none(), Option.none(), FINGERPRINT, 2, 3, 2, 3,
                        new Begin.Create()),
                Arguments.of("the run not held, nothing held", false, Option.none(), Option.none(), FINGERPRINT, 0, 5, 0, 5,
                        new Begin.Refuse(new Refusal.RunStateLost())),
                Arguments.of("the run not held wins over a retry of the same attempt", false, held(PROJECTING, true), Option.none(),
                        FINGERPRINT, 1, 5, 1, 5, new Begin.Refuse(new Refusal.RunStateLost())),
                Arguments.of("the run not held wins over a held key", false, held(READY, false), Option.none(), FINGERPRINT, 1, 5, 1, 5,
                        new Begin.Refuse(new Refusal.RunStateLost())),
                Arguments.of("a call the run began, its record gone, same fingerprint", true, Option.none(),
                        Option.some(FINGERPRINT), FINGERPRINT, 1, 5, 1, 5, new Begin.Refuse(new Refusal.Duplicate())),
                Arguments.of("a call the run began, its record gone, other fingerprint", true, Option.none(),
                        Option.some(OTHER_FINGERPRINT), FINGERPRINT, 1, 5, 1, 5, new Begin.Refuse(new Refusal.IdReused())),
                Arguments.of("the ledger wins over spent budgets", true, Option.none(), Option.some(FINGERPRINT),
                        FINGERPRINT, 9, 1, 9, 1, new Begin.Refuse(new Refusal.Duplicate())),
                Arguments.of("the held record wins over the ledger", true, held(PROJECTING, true), Option.some(OTHER_FINGERPRINT),
                        FINGERPRINT, 1, 5, 1, 5, new Begin.Retry(PROJECTING)),
                Arguments.of("the run not held wins over the ledger", false, Option.none(), Option.some(FINGERPRINT),
                        FINGERPRINT, 1, 5, 1, 5, new Begin.Refuse(new Refusal.RunStateLost())),
                Arguments.of("a zero budget", true, Option.none(), Option.none(), FINGERPRINT, 0, 0, 0, 5,
                        new Begin.Refuse(new Refusal.BudgetExhausted(Refusal.Scope.RUN))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("begins")
    void decidesABegin(String name, boolean runOpen, Option<Held> held, Option<String> begun, String fingerprint, long runUsed, int runBudget, long toolUsed,
            int toolBudget, Begin expected) {
        Option<RunLedger> run = runOpen ? Option.some(new RunLedger(begun, runUsed, toolUsed)) : Option.none();
        assertThat(StoreRules.begin(new BeginFacts(run, held, fingerprint, runBudget, toolBudget))).isEqualTo(expected);
        if (runOpen) {
            // A store that holds the run may give the ledger by its parts: the same decision.
            assertThat(StoreRules.beginInHeldRun(begun, runUsed, toolUsed, held, fingerprint, runBudget, toolBudget))
                    .isEqualTo(expected);
        }
    }

    static Stream<Arguments> completions() {
        Ready otherContent = CanonicalRecordTest.ready(PROJECTING, "raw", found("other"), LATER, UNBOUNDED).get();
        return Stream.of(
                Arguments.of("PROJECTING, own attempt, READY", held(PROJECTING, true), READY, new Change.Write<>(READY)),
                Arguments.of("PROJECTING, own attempt, ERROR", held(PROJECTING, true), FAILED, new Change.Write<>(FAILED)),
                Arguments.of("nothing held", Option.none(), READY, new Change.Refuse<>(new Refusal.Expired())),
                Arguments.of("another attempt's record", held(PROJECTING, false), READY, new Change.Refuse<>(new Refusal.Conflict())),
                Arguments.of("a retry of the same completion", held(READY, true), READY, new Change.AlreadyFinal<>(READY)),
                Arguments.of("final with other content", held(READY, true), otherContent, new Change.Refuse<>(new Refusal.Conflict())),
                Arguments.of("final with another status", held(READY, true), FAILED, new Change.Refuse<>(new Refusal.Conflict())),
                Arguments.of("abandoned meanwhile", held(ABANDONED, true), READY, new Change.Refuse<>(new Refusal.Conflict())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("completions")
    void decidesACompletion(String name, Option<Held> held, CanonicalRecord.Final outcome,
            Change<CanonicalRecord.Final> expected) {
        assertThat(StoreRules.complete(held, outcome.completion())).isEqualTo(expected);
    }

    @Test
    void aCompletionIsWhatTheCompletionAddsToItsRecord() {
        assertThat(READY.completion()).isEqualTo(new Completion.Succeeded(READY.raw(), READY.result(), READY.updatedAt()));
        assertThat(FAILED.completion()).isEqualTo(new Completion.Failed(FAILED.code(), FAILED.rawResponse(), FAILED.updatedAt()));
        assertThat(PROJECTING.complete(READY.completion())).isEqualTo(READY);
        assertThat(PROJECTING.complete(FAILED.completion())).isEqualTo(FAILED);
        assertThat(PROJECTING.byteSize() + READY.completion().byteSize()).isEqualTo(READY.byteSize());
        assertThat(PROJECTING.byteSize() + FAILED.completion().byteSize()).isEqualTo(FAILED.byteSize());
        assertThatNullPointerException().isThrownBy(() -> new Completion.Succeeded(null, READY.result(), LATER));
        assertThatNullPointerException().isThrownBy(() -> new Completion.Failed(ErrorCode.STORE_FULL, null, LATER));
        assertThatNullPointerException().isThrownBy(() -> PROJECTING.complete(null));
    }

    static Stream<Arguments> ends() {
        return Stream.of(
                Arguments.of("PROJECTING, own attempt", held(PROJECTING, true),
                        new Change.Write<>(PROJECTING.failed(ErrorCode.STORE_OUTCOME_UNKNOWN, Option.none(), LATER))),
                Arguments.of("its completion landed first", held(READY, true), new Change.AlreadyFinal<>(READY)),
                Arguments.of("nothing held", Option.none(), new Change.Refuse<>(new Refusal.Expired())),
                Arguments.of("another attempt's record", held(PROJECTING, false), new Change.Refuse<>(new Refusal.Conflict())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ends")
    void decidesAnEndByToken(String name, Option<Held> held, Change<CanonicalRecord.Final> expected) {
        assertThat(StoreRules.end(held, ErrorCode.STORE_OUTCOME_UNKNOWN, LATER)).isEqualTo(expected);
    }

    @Test
    void anEndedRecordKeepsNoRawResponse() {
        CanonicalRecord.Final ended = ((Change.Write<CanonicalRecord.Final>) StoreRules.end(held(PROJECTING, true),
                ErrorCode.STORE_FULL, LATER)).record();

        assertThat(ended).isInstanceOf(Failed.class);
        assertThat(ended.rawResponse()).isEmpty();
        assertThat(ended.errorCode()).contains(ErrorCode.STORE_FULL);
    }

    static Stream<Arguments> abandonments() {
        return Stream.of(
                Arguments.of("PROJECTING past its lease", Option.some(PROJECTING), true, new Change.Write<>(ABANDONED)),
                Arguments.of("PROJECTING within its lease", Option.some(PROJECTING), false,
                        new Change.Refuse<>(new Refusal.LeaseNotExpired())),
                Arguments.of("abandoned before (a retry)", Option.some(ABANDONED), true, new Change.AlreadyFinal<>(ABANDONED)),
                Arguments.of("READY", Option.some(READY), true, new Change.Refuse<>(new Refusal.Conflict())),
                Arguments.of("ERROR with another code", Option.some(FAILED), true, new Change.Refuse<>(new Refusal.Conflict())),
                Arguments.of("nothing held", Option.none(), true, new Change.Refuse<>(new Refusal.Expired())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("abandonments")
    void decidesAnAbandonment(String name, Option<CanonicalRecord> held, boolean leasePassed,
            Change<Failed> expected) {
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
        assertThatNullPointerException().isThrownBy(() -> StoreRules.begin(new BeginFacts(Option.none(), null, FINGERPRINT, 1, 1)));
        assertThatNullPointerException().isThrownBy(() -> StoreRules.begin(
                new BeginFacts(Option.some(new RunLedger(null, 0, 0)), Option.none(), FINGERPRINT, 1, 1)));
        assertThatNullPointerException().isThrownBy(() -> StoreRules.begin(null));
        assertThatNullPointerException().isThrownBy(() -> StoreRules.beginInHeldRun(null, 0, 0, Option.none(), FINGERPRINT, 1, 1));
        assertThatNullPointerException().isThrownBy(() -> StoreRules.beginInHeldRun(Option.none(), 0, 0, null, FINGERPRINT, 1, 1));
        assertThatNullPointerException().isThrownBy(() -> StoreRules.beginInHeldRun(Option.none(), 0, 0, Option.none(), null, 1, 1));
        assertThatNullPointerException().isThrownBy(() -> StoreRules.complete(Option.none(), null));
        assertThatNullPointerException().isThrownBy(() -> StoreRules.end(Option.none(), null, LATER));
        assertThatNullPointerException().isThrownBy(() -> StoreRules.abandon(Option.none(), true, null));
        assertThatNullPointerException().isThrownBy(() -> new Held(null, true));
    }
}
