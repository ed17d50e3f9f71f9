package io.toolboundary.tck.reliability.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.InvocationStart;
import io.toolboundary.application.spi.RunOpening;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.application.spi.ToolCallIdPage;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.spi.StoreRules;
import io.toolboundary.tck.reliability.history.RecordModel.Answer;
import io.toolboundary.tck.reliability.history.RecordModel.Call;
import io.toolboundary.tck.reliability.history.RecordModel.Reply;
import io.toolboundary.tck.store.StoreRecordFixtures;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RecordingStoreTest {

    /**
     * A store of the domain's rules behind one lock; {@code racy} splits begin's check from its write (two lock
     * holds), and two begins meet between the two, so both decide before either writes.
     */
    static final class RulesStore implements CanonicalInvocationStore {
        private final boolean racy;
        private final Map<InvocationKey, CanonicalRecord> records = new HashMap<>();
        private final Map<InvocationKey, AttemptToken> tokens = new HashMap<>();
        private final Set<InvocationKey> ledger = new HashSet<>();

        /** When racy: two begins both decide before either writes. */
        private final CyclicBarrier bothDecided = new CyclicBarrier(2);

        RulesStore(boolean racy) {
            this.racy = racy;
        }

        @Override
        public Either<StoreFailure, RunToken> openRun(RunOpening opening, Duration timeout) {
            return Either.right(opening.offered());
        }

        @Override
        public Either<StoreFailure, CanonicalRecord.Projecting> begin(InvocationStart start, Duration timeout) {
            if (!racy) {
                synchronized (this) {
                    return created(start, decided(start));
                }
            }
            Either<io.toolboundary.domain.spi.Refusal, Option<CanonicalRecord.Projecting>> decided;
            synchronized (this) {
                decided = decided(start);
            }
            try {
                bothDecided.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
                throw new IllegalStateException("the two begins did not meet", e);
            }
            synchronized (this) {
                return created(start, decided);
            }
        }

        /** What the rules decide of a begin, on the state as it is now; the caller holds the lock. */
        private Either<io.toolboundary.domain.spi.Refusal, Option<CanonicalRecord.Projecting>> decided(
                InvocationStart start) {
            InvocationKey key = start.record().key();
            return StoreRules.begin(Option.some(new StoreRules.RunLedger(
                    ledger.contains(key) ? Option.some(start.record().requestFingerprint()) : Option.none(), 0, 0)),
                    held(key, start.token()), start.record().requestFingerprint(), 100, 100);
        }

        /** Carries out a begin's decision; the caller holds the lock. */
        private Either<StoreFailure, CanonicalRecord.Projecting> created(InvocationStart start,
                Either<io.toolboundary.domain.spi.Refusal, Option<CanonicalRecord.Projecting>> decided) {
            if (decided.isLeft()) {
                return Either.left(StoreFailure.refused(decided.getLeft()));
            }
            if (decided.get().isDefined()) {
                return Either.right(decided.get().get());
            }
            InvocationKey key = start.record().key();
            records.put(key, start.record());
            tokens.put(key, start.token());
            ledger.add(key);
            return Either.right(start.record());
        }

        @Override
        public synchronized Either<StoreFailure, CanonicalRecord.Final> complete(AttemptToken token,
                CanonicalRecord.Final record, Duration timeout) {
            return write(record.key(), StoreRules.complete(held(record.key(), token), record));
        }

        @Override
        public synchronized Either<StoreFailure, CanonicalRecord.Final> end(InvocationKey key, AttemptToken token,
                ErrorCode code, Instant now, Duration timeout) {
            return write(key, StoreRules.end(held(key, token), code, now));
        }

        @Override
        public synchronized Either<StoreFailure, CanonicalRecord.Failed> abandon(InvocationKey key, Instant now,
                Duration timeout) {
            return write(key, StoreRules.abandon(Option.of(records.get(key)), true, now));
        }

        @Override
        public synchronized Either<StoreFailure, Option<CanonicalRecord>> find(InvocationKey key, Duration timeout) {
            return Either.right(Option.of(records.get(key)));
        }

        @Override
        public Either<StoreFailure, ToolCallIdPage> toolCallIds(ToolCallIdPage.Request request, Duration timeout) {
            return Either.left(StoreFailure.unavailable());
        }

        private Option<StoreRules.Held> held(InvocationKey key, AttemptToken token) {
            CanonicalRecord record = records.get(key);
            return record == null ? Option.none() : Option.some(new StoreRules.Held(record, token.equals(tokens.get(key))));
        }

        private <F extends CanonicalRecord.Final> Either<StoreFailure, F> write(InvocationKey key,
                Either<io.toolboundary.domain.spi.Refusal, StoreRules.Change<F>> change) {
            if (change.isLeft()) {
                return Either.left(StoreFailure.refused(change.getLeft()));
            }
            if (change.get().write()) {
                records.put(key, change.get().record());
            }
            return Either.right(change.get().record());
        }
    }

    /** Answers some calls {@code OUTCOME_UNKNOWN}, after running them or without. */
    static final class Unsure extends io.toolboundary.tck.store.ForwardingStore {
        Unsure(CanonicalInvocationStore store) {
            super(store);
        }

        private static <T> Either<StoreFailure, T> maybe(java.util.function.Supplier<Either<StoreFailure, T>> call) {
            int dice = ThreadLocalRandom.current().nextInt(10);
            if (dice == 0) {
                return Either.left(StoreFailure.outcomeUnknown());
            }
            Either<StoreFailure, T> result = call.get();
            return dice == 1 ? Either.left(StoreFailure.outcomeUnknown()) : result;
        }

        @Override
        public Either<StoreFailure, CanonicalRecord.Projecting> begin(InvocationStart start, Duration timeout) {
            return maybe(() -> super.begin(start, timeout));
        }

        @Override
        public Either<StoreFailure, CanonicalRecord.Final> complete(AttemptToken token, CanonicalRecord.Final record,
                Duration timeout) {
            return maybe(() -> super.complete(token, record, timeout));
        }
    }

    private static final AtomicLong ATTEMPTS = new AtomicLong();

    /** Threads making begins, completions, ends, abandonments and reads on a few keys. */
    static History<Call, Answer> drive(CanonicalInvocationStore store, int threads, int keys, int rounds)
            throws InterruptedException {
        History<Call, Answer> history = new History<>();
        RecordingStore recorder = new RecordingStore(store, history, 7);
        RunId run = StoreRecordFixtures.freshRunId();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            workers.add(new Thread(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int i = 0; i < rounds; i++) {
                    String id = "call-" + random.nextInt(keys);
                    CanonicalRecord.Projecting record = StoreRecordFixtures.projecting(run, id, "search_logs",
                            StoreRecordFixtures.REQUEST, Instant.ofEpochSecond(1_900_000_000L, ATTEMPTS.incrementAndGet()));
                    AttemptToken token = AttemptToken.random();
                    Duration timeout = Duration.ofSeconds(1);
                    if (recorder.begin(StoreRecordFixtures.start(record, token), timeout).isRight()) {
                        recorder.find(record.key(), timeout);
                        switch (random.nextInt(3)) {
                            case 0 -> recorder.complete(token, StoreRecordFixtures.readyOf(record), timeout);
                            case 1 -> recorder.end(record.key(), token, ErrorCode.EXECUTION_FAILED, Instant.now(),
                                    timeout);
                            default -> recorder.abandon(record.key(), Instant.now(), timeout);
                        }
                    } else {
                        recorder.find(record.key(), timeout);
                    }
                }
            }, "worker-" + t));
        }
        workers.forEach(Thread::start);
        for (Thread worker : workers) {
            worker.join();
        }
        return history;
    }

    @Test
    void historyOfAnAtomicStoreIsLinearizable() throws InterruptedException {
        History<Call, Answer> history = drive(new RulesStore(false), 8, 6, 400);
        Linearizability.Result<Call, Answer> result = Linearizability.check(RecordModel.linearizable(),
                history.operations());
        assertThat(result.refused()).isEmpty();
        assertThat(result.parts()).isEqualTo(6);
    }

    @Test
    void unknownOutcomesAreRecordedOpenAndStillLinearizable() throws InterruptedException {
        History<Call, Answer> history = drive(new Unsure(new RulesStore(false)), 8, 6, 300);
        assertThat(history.operations()).anyMatch(Operation::undetermined);
        assertThat(Linearizability.check(RecordModel.linearizable(), history.operations()).refused()).isEmpty();
    }

    @Test
    void storeWhoseBeginChecksAndWritesApartIsCaught() throws InterruptedException {
        // Two attempts on one key both check before either writes: both are told CREATED.
        History<Call, Answer> history = drive(new RulesStore(true), 2, 1, 1);
        long created = history.operations().stream()
                .filter(op -> !op.undetermined() && op.output().reply() == Reply.CREATED
                        && op.input().kind() == RecordModel.Kind.BEGIN)
                .map(op -> op.output().attempt()).distinct().count();

        assertThat(created).as("attempts told CREATED").isEqualTo(2);
        assertThat(Linearizability.check(RecordModel.linearizable(), history.operations()).verdict())
                .isEqualTo(Linearizability.Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void failuresAreRecordedByWhatTheyMayHaveDone() {
        History<Call, Answer> history = new History<>();
        CanonicalInvocationStore failing = new io.toolboundary.tck.store.ForwardingStore(new RulesStore(false)) {
            @Override
            public Either<StoreFailure, Option<CanonicalRecord>> find(InvocationKey key, Duration timeout) {
                return Either.left(key.toolCallId().value().equals("a") ? StoreFailure.unavailable()
                        : key.toolCallId().value().equals("b") ? StoreFailure.dataInvalid()
                        : StoreFailure.outcomeUnknown());
            }
        };
        RecordingStore recorder = new RecordingStore(failing, history, 1);
        RunId run = StoreRecordFixtures.freshRunId();
        for (String id : List.of("a", "b", "c")) {
            recorder.find(StoreRecordFixtures.projecting(run, id).key(), Duration.ofSeconds(1));
        }
        List<Operation<Call, Answer>> ops = history.operations();
        assertThat(ops.get(0).output()).isEqualTo(Answer.notWritten());
        assertThat(ops.get(1).output()).isEqualTo(Answer.invalid());
        assertThat(ops.get(2).undetermined()).isTrue();
        assertThat(ops.get(2).returnedAt()).isEqualTo(Operation.OPEN);
        assertThat(ops).allMatch(op -> op.process() == 1 && op.input().kind() == RecordModel.Kind.FIND);
    }
}
