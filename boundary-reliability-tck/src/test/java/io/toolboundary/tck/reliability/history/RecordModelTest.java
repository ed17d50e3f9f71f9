package io.toolboundary.tck.reliability.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.tck.reliability.history.Linearizability.Verdict;
import io.toolboundary.tck.reliability.history.RecordModel.Answer;
import io.toolboundary.tck.reliability.history.RecordModel.Call;
import io.toolboundary.tck.reliability.history.RecordModel.Promise;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecordModelTest {

    private static final String K = "run-1/call-1";

    static Operation<Call, Answer> op(int p, long from, long to, Call call, Answer answer) {
        return Operation.answered(p, from, to, call, answer);
    }

    static Operation<Call, Answer> open(int p, long from, Call call) {
        return Operation.undetermined(p, from, call);
    }

    static Verdict verdict(RecordModel model, List<Operation<Call, Answer>> history) {
        return Linearizability.check(model, history).verdict();
    }

    static Verdict verdict(List<Operation<Call, Answer>> history) {
        return verdict(RecordModel.linearizable(), history);
    }

    @Test
    void oneCallBeginCompleteAndReadsIsLinearizable() {
        assertThat(verdict(List.of(
                op(0, 0, 2, Call.find(K), Answer.none()),
                op(0, 3, 5, Call.begin(K, "a"), Answer.created("a")),
                op(1, 4, 6, Call.find(K), Answer.projecting("a")),
                op(1, 7, 8, Call.begin(K, "b"), Answer.refused("DUPLICATE")),
                op(0, 9, 12, Call.complete(K, "a", "READY"), Answer.ended("a", "READY")),
                op(1, 10, 11, Call.find(K), Answer.projecting("a")),
                op(1, 13, 14, Call.find(K), Answer.ended("a", "READY")),
                op(1, 15, 16, Call.complete(K, "b", "READY"), Answer.refused("CONFLICT")),
                op(0, 15, 16, Call.complete(K, "a", "READY"), Answer.ended("a", "READY")),
                op(0, 17, 18, Call.end(K, "a", "ERROR:STORE_OUTCOME_UNKNOWN"), Answer.ended("a", "READY")))))
                .isEqualTo(Verdict.LINEARIZABLE);
    }

    @Test
    void twoCreatedInOverlappingWindowsAreRefused() {
        assertThat(verdict(List.of(
                op(0, 0, 10, Call.begin(K, "a"), Answer.created("a")),
                op(1, 1, 9, Call.begin(K, "b"), Answer.created("b"))))).isEqualTo(Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void overlappingBeginsOneCreatedOneDuplicateAreLinearizable() {
        assertThat(verdict(List.of(
                op(0, 0, 10, Call.begin(K, "a"), Answer.refused("DUPLICATE")),
                op(1, 1, 9, Call.begin(K, "b"), Answer.created("b"))))).isEqualTo(Verdict.LINEARIZABLE);
    }

    @Test
    void staleReadAfterAnsweredCompletionIsRefused() {
        assertThat(verdict(List.of(
                op(0, 0, 1, Call.begin(K, "a"), Answer.created("a")),
                op(0, 2, 3, Call.complete(K, "a", "READY"), Answer.ended("a", "READY")),
                op(1, 4, 5, Call.find(K), Answer.projecting("a"))))).isEqualTo(Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void readOfNothingAfterAnsweredBeginIsRefused() {
        assertThat(verdict(List.of(
                op(0, 0, 1, Call.begin(K, "a"), Answer.created("a")),
                op(1, 2, 3, Call.find(K), Answer.none())))).isEqualTo(Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void undeterminedBeginMayHaveCreatedTheRecordOrNot() {
        List<Operation<Call, Answer>> created = List.of(
                open(0, 0, Call.begin(K, "a")),
                op(1, 5, 6, Call.find(K), Answer.projecting("a")),
                op(0, 7, 8, Call.end(K, "a", "ERROR:STORE_OUTCOME_UNKNOWN"),
                        Answer.ended("a", "ERROR:STORE_OUTCOME_UNKNOWN")));
        List<Operation<Call, Answer>> notCreated = List.of(
                open(0, 0, Call.begin(K, "a")),
                op(1, 5, 6, Call.find(K), Answer.none()),
                op(1, 7, 8, Call.begin(K, "b"), Answer.created("b")));
        assertThat(verdict(created)).isEqualTo(Verdict.LINEARIZABLE);
        assertThat(verdict(notCreated)).isEqualTo(Verdict.LINEARIZABLE);
    }

    @Test
    void undeterminedBeginCannotBeSeenAndThenVanish() {
        assertThat(verdict(List.of(
                open(0, 0, Call.begin(K, "a")),
                op(1, 5, 6, Call.find(K), Answer.projecting("a")),
                op(1, 7, 8, Call.find(K), Answer.none())))).isEqualTo(Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void undeterminedCompletionMayLandLate() {
        assertThat(verdict(List.of(
                op(0, 0, 1, Call.begin(K, "a"), Answer.created("a")),
                open(0, 2, Call.complete(K, "a", "READY")),
                op(1, 3, 4, Call.find(K), Answer.projecting("a")),
                op(1, 5, 6, Call.find(K), Answer.ended("a", "READY")),
                op(1, 7, 8, Call.abandon(K), Answer.refused("CONFLICT"))))).isEqualTo(Verdict.LINEARIZABLE);
    }

    @Test
    void abandonAgainstCompletionHasOneWinner() {
        assertThat(verdict(List.of(
                op(0, 0, 1, Call.begin(K, "a"), Answer.created("a")),
                op(0, 2, 10, Call.complete(K, "a", "READY"), Answer.ended("a", "READY")),
                op(1, 3, 9, Call.abandon(K), Answer.ended("a", RecordModel.ABANDONED))))).isEqualTo(
                        Verdict.NOT_LINEARIZABLE);
        assertThat(verdict(List.of(
                op(0, 0, 1, Call.begin(K, "a"), Answer.created("a")),
                op(0, 2, 10, Call.complete(K, "a", "READY"), Answer.refused("CONFLICT")),
                op(1, 3, 9, Call.abandon(K), Answer.ended("a", RecordModel.ABANDONED))))).isEqualTo(
                        Verdict.LINEARIZABLE);
    }

    @Test
    void expiredRecordIsNeverBegunAgainNorCompleted() {
        assertThat(verdict(List.of(
                op(0, 0, 1, Call.begin(K, "a"), Answer.created("a")),
                op(9, 2, 3, Call.expire(K), Answer.none()),
                op(0, 4, 5, Call.complete(K, "a", "READY"), Answer.refused("EXPIRED")),
                op(1, 6, 7, Call.begin(K, "b"), Answer.refused("DUPLICATE"))))).isEqualTo(Verdict.LINEARIZABLE);
        assertThat(verdict(List.of(
                op(0, 0, 1, Call.begin(K, "a"), Answer.created("a")),
                op(9, 2, 3, Call.expire(K), Answer.none()),
                op(1, 6, 7, Call.begin(K, "b"), Answer.created("b"))))).isEqualTo(Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void keysAreCheckedApartAndRunStateLostNeedsAFailover() {
        String other = "run-1/call-2";
        List<Operation<Call, Answer>> history = List.of(
                op(0, 0, 1, Call.begin(K, "a"), Answer.created("a")),
                op(1, 0, 1, Call.begin(other, "b"), Answer.created("b")),
                op(1, 2, 3, Call.begin(K, "c"), Answer.refused("RUN_STATE_LOST")));
        Linearizability.Result<Call, Answer> result = Linearizability.check(RecordModel.linearizable(), history);
        assertThat(result.parts()).isEqualTo(2);
        assertThat(result.anomalies()).isEqualTo(1);
        assertThat(verdict(RecordModel.of(Promise.FAILOVER_MAY_LOSE_WRITES), history))
                .isEqualTo(Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void invalidDataIsNeverAllowedAndNotWrittenChangesNothing() {
        assertThat(verdict(List.of(op(0, 0, 1, Call.find(K), Answer.invalid())))).isEqualTo(Verdict.NOT_LINEARIZABLE);
        assertThat(verdict(List.of(
                op(0, 0, 1, Call.begin(K, "a"), Answer.notWritten()),
                op(0, 2, 3, Call.find(K), Answer.none())))).isEqualTo(Verdict.LINEARIZABLE);
    }

    /** A final write answered, then lost by a failover to a replica that missed it. */
    private static List<Operation<Call, Answer>> lostAnsweredCompletion(long failoverFrom, long failoverTo) {
        return List.of(
                op(0, 0, 1, Call.begin(K, "a"), Answer.created("a")),
                op(0, 2, 3, Call.complete(K, "a", "READY"), Answer.ended("a", "READY")),
                op(9, failoverFrom, failoverTo, Call.failover(), Answer.none()),
                op(1, 20, 21, Call.find(K), Answer.projecting("a")),
                op(1, 22, 23, Call.begin(K, "b"), Answer.refused("RUN_STATE_LOST")));
    }

    @Test
    void lostAnsweredWriteIsAllowedOnlyByTheWeakestPromiseAndOnlyAfterTheFailover() {
        assertThat(verdict(RecordModel.linearizable(), lostAnsweredCompletion(10, 11)))
                .isEqualTo(Verdict.NOT_LINEARIZABLE);
        assertThat(verdict(RecordModel.of(Promise.ANSWERED_WRITES_SURVIVE_FAILOVER), lostAnsweredCompletion(10, 11)))
                .isEqualTo(Verdict.NOT_LINEARIZABLE);
        assertThat(verdict(RecordModel.of(Promise.FAILOVER_MAY_LOSE_WRITES), lostAnsweredCompletion(10, 11)))
                .isEqualTo(Verdict.LINEARIZABLE);
        // The failover marker ends before the completion: the loss cannot be explained by it.
        assertThat(verdict(RecordModel.of(Promise.FAILOVER_MAY_LOSE_WRITES), List.of(
                op(9, 0, 1, Call.failover(), Answer.none()),
                op(0, 2, 3, Call.begin(K, "a"), Answer.created("a")),
                op(1, 4, 5, Call.find(K), Answer.none())))).isEqualTo(Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void unansweredWriteSeenByAReadMayBeLostAtAFailover() {
        List<Operation<Call, Answer>> history = List.of(
                op(0, 0, 1, Call.begin(K, "a"), Answer.created("a")),
                open(0, 2, Call.complete(K, "a", "READY")),
                op(1, 4, 5, Call.find(K), Answer.ended("a", "READY")),
                op(9, 10, 11, Call.failover(), Answer.none()),
                op(1, 20, 21, Call.find(K), Answer.projecting("a")),
                op(1, 22, 23, Call.abandon(K), Answer.ended("a", RecordModel.ABANDONED)));
        assertThat(verdict(RecordModel.linearizable(), history)).isEqualTo(Verdict.NOT_LINEARIZABLE);
        assertThat(verdict(RecordModel.of(Promise.ANSWERED_WRITES_SURVIVE_FAILOVER), history))
                .isEqualTo(Verdict.LINEARIZABLE);
    }

    @Test
    void historyFileRoundTrips(@TempDir Path dir) {
        History<Call, Answer> history = new History<>();
        history.add(new Operation<>(3, "worker-1", 10, 20, Call.complete(K, "a", "ERROR:EXECUTION_FAILED"),
                Answer.ended("a", "ERROR:EXECUTION_FAILED")));
        history.add(new Operation<>(3, "worker-2", 15, Operation.OPEN, Call.abandon(K), null));
        Path file = dir.resolve("history.tsv");
        history.write(file, Call::text, Answer::text);
        assertThat(Files.exists(file)).isTrue();
        History<Call, Answer> read = History.read(file, Call::parse, Answer::parse);
        assertThat(read.operations()).isEqualTo(history.operations());
    }
}
