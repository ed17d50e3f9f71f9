package io.toolboundary.adapter.inmemory;

import static io.toolboundary.tck.store.StoreRecordFixtures.RUN_TOKEN;
import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static io.toolboundary.tck.store.StoreRecordFixtures.TTL;
import static io.toolboundary.tck.store.StoreRecordFixtures.evidenceFound;
import static io.toolboundary.tck.store.StoreRecordFixtures.freshRunId;
import static io.toolboundary.tck.store.StoreRecordFixtures.projecting;
import static io.toolboundary.tck.store.StoreRecordFixtures.readyOf;
import static io.toolboundary.tck.store.StoreRecordFixtures.start;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.InvocationStart;
import io.toolboundary.application.spi.RunOpening;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.spi.Refusal;
import io.toolboundary.testkit.CountingExecutor;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testkit.MutableClock;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The in-memory store's bound: {@code maxRecords} and {@code maxBytes}, {@code STORE_FULL} beyond, nothing written. */
class InMemoryStoreBoundTest {

    private static final Either<StoreFailure, Object> STORE_FULL = Either.left(StoreFailure.full());

    private final MutableClock clock = MutableClock.at(Instant.parse("2030-01-01T00:00:00Z"));

    /** Records of one run with call ids of one length: all the same size. */
    private static CanonicalRecord.Projecting record(RunId run, int i) {
        return projecting(run, "call_%04d".formatted(i));
    }

    /** The size of every such record of a {@link io.toolboundary.tck.store.StoreRecordFixtures#freshRunId()}. */
    private static final long RECORD_BYTES = record(freshRunId(), 0).byteSize();

    private Either<StoreFailure, ?> begin(InMemoryCanonicalInvocationStore store, CanonicalRecord.Projecting record) {
        return begin(store, start(record, AttemptToken.random()));
    }

    /** Opens the record's run, for as long as a record lives, when it is not open already; then begins. */
    private Either<StoreFailure, ?> begin(InMemoryCanonicalInvocationStore store, InvocationStart start) {
        Either<StoreFailure, ?> opened = store.openRun(new RunOpening(start.record().key().runId(), RUN_TOKEN, TTL), TIMEOUT);
        return opened.isLeft() ? opened : store.begin(start, TIMEOUT);
    }

    @Nested
    class Records {

        @Test
        void acceptsExactlyMaxRecordsAndRefusesTheNextWritingNothing() {
            InMemoryCanonicalInvocationStore store = InMemoryCanonicalInvocationStore.custom().clock(clock).maxRecords(5).build();
            RunId run = freshRunId();
            for (int i = 0; i < 5; i++) {
                assertThat(begin(store, record(run, i)).isRight()).as("record %s", i).isTrue();
            }
            long bytes = store.heldBytes();

            assertThat(begin(store, record(run, 5))).isEqualTo(STORE_FULL);
            assertThat(begin(store, record(freshRunId(), 5))).isEqualTo(STORE_FULL);

            assertThat(store.find(record(run, 5).key(), TIMEOUT).get()).isEmpty();
            assertThat(store.heldBytes()).isEqualTo(bytes);
            assertThat(store.size()).as("5 records, 2 counters").isEqualTo(5 + 2);
        }

        @Test
        void answersDuplicatesAsSuchWhenFull() {
            InMemoryCanonicalInvocationStore store = InMemoryCanonicalInvocationStore.custom().clock(clock).maxRecords(1).build();
            CanonicalRecord.Projecting first = record(freshRunId(), 0);
            begin(store, first);

            assertThat(begin(store, first)).isEqualTo(Either.left(StoreFailure.refused(Refusal.DUPLICATE)));
        }

        @Test
        void reclaimsExpiredRecordsBeforeRefusing() {
            InMemoryCanonicalInvocationStore store = InMemoryCanonicalInvocationStore.custom().clock(clock).maxRecords(3).build();
            RunId run = freshRunId();
            for (int i = 0; i < 3; i++) {
                begin(store, record(run, i));
            }
            assertThat(begin(store, record(run, 3))).isEqualTo(STORE_FULL);

            clock.advance(TTL);

            RunId next = freshRunId();
            for (int i = 0; i < 3; i++) {
                assertThat(begin(store, record(next, i)).isRight()).as("record %s after expiry", i).isTrue();
            }
            assertThat(begin(store, record(next, 3))).isEqualTo(STORE_FULL);
            assertThat(store.size()).as("the new run and its 3 records only").isEqualTo(1 + 3);
        }

        @Test
        void anOpeningThroughTheBoundaryAtTheRunLimitIsStoreFullRunsNothingAndARetryOfAnOpenRunKeepsItsToken() {
            InMemoryCanonicalInvocationStore store = InMemoryCanonicalInvocationStore.custom().clock(clock).maxRecords(2).build();
            CountingExecutor tool = FakeTools.counting(request -> "raw");
            ToolBoundary boundary = ToolBoundary.builder()
                    .store(store).clock(clock).accessPolicy(AccessPolicy.allowAll())
                    .tool(ToolBinding.readOnly(Fixtures.DEFAULT_TOOL_NAME,
                            tool, FakeProjectors.evidenceFound("found")))
                    .build();
            RunContext first = Fixtures.anyRunContext();
            RunContext second = Fixtures.anyRunContext();
            RunContext third = Fixtures.anyRunContext();
            RunContext opened = boundary.openRun(first).get();
            boundary.openRun(second).get();

            assertThat(boundary.openRun(third).map(run -> run.runToken()))
                    .isEqualTo(Either.left(BoundaryError.of(ErrorCode.STORE_FULL)));
            assertThat(boundary.invoke(third, Fixtures.envelope(third).build()).getLeft().code())
                    .isEqualTo(ErrorCode.RUN_NOT_OPENED);
            assertThat(tool.executions()).isZero();
            assertThat(boundary.openRun(first).map(run -> run.runToken()))
                    .as("the same run opened again at the limit").isEqualTo(Either.right(opened.runToken()));
        }

        @Test
        void holdsAtMostMaxRecordsRunsAndReclaimsExpiredOnesBeforeRefusing() {
            InMemoryCanonicalInvocationStore store = InMemoryCanonicalInvocationStore.custom().clock(clock).maxRecords(2).build();
            store.openRun(new RunOpening(freshRunId(), RUN_TOKEN, TTL), TIMEOUT);
            store.openRun(new RunOpening(freshRunId(), RUN_TOKEN, TTL.multipliedBy(2)), TIMEOUT);
            RunId third = freshRunId();

            assertThat(store.openRun(new RunOpening(third, RUN_TOKEN, TTL), TIMEOUT)).isEqualTo(STORE_FULL);
            assertThat(store.size()).isEqualTo(2);

            clock.advance(TTL);

            assertThat(store.openRun(new RunOpening(third, RUN_TOKEN, TTL), TIMEOUT)).isEqualTo(Either.right(RUN_TOKEN));
            assertThat(store.size()).as("the longer-lived run and the new one").isEqualTo(2);
        }

        @Test
        void aRecordDroppedWhenTouchedAfterExpiryFreesItsRoom() {
            InMemoryCanonicalInvocationStore store = InMemoryCanonicalInvocationStore.custom().clock(clock).maxRecords(1).build();
            CanonicalRecord.Projecting first = record(freshRunId(), 0);
            begin(store, first);
            clock.advance(TTL);

            // The same key again: the expired record is dropped as it is touched and its room reused.
            assertThat(begin(store, first).isRight()).isTrue();
            assertThat(store.heldBytes()).isEqualTo(first.byteSize());
        }
    }

    @Nested
    class Bytes {

        @Test
        void acceptsRecordsUpToMaxBytesExactly() {
            InMemoryCanonicalInvocationStore store =
                    InMemoryCanonicalInvocationStore.custom().clock(clock).maxBytes(3 * RECORD_BYTES).build();
            RunId run = freshRunId();
            for (int i = 0; i < 3; i++) {
                assertThat(begin(store, record(run, i)).isRight()).as("record %s", i).isTrue();
            }

            assertThat(store.heldBytes()).isEqualTo(3 * RECORD_BYTES);
            assertThat(begin(store, record(run, 3))).isEqualTo(STORE_FULL);
        }

        @Test
        void refusesTheRecordThatWouldGoOneByteOver() {
            InMemoryCanonicalInvocationStore store =
                    InMemoryCanonicalInvocationStore.custom().clock(clock).maxBytes(3 * RECORD_BYTES - 1).build();
            RunId run = freshRunId();
            begin(store, record(run, 0));
            begin(store, record(run, 1));

            assertThat(begin(store, record(run, 2))).isEqualTo(STORE_FULL);
            assertThat(store.heldBytes()).isEqualTo(2 * RECORD_BYTES);
        }

        @Test
        void countsTheGrowthOfACompletionAndAcceptsOneThatFillsTheStoreExactly() {
            CanonicalRecord.Projecting record = record(freshRunId(), 0);
            CanonicalRecord.Ready ready = readyOf(record, "raw".repeat(100), evidenceFound("found"));
            InMemoryCanonicalInvocationStore store =
                    InMemoryCanonicalInvocationStore.custom().clock(clock).maxBytes(ready.byteSize()).build();
            AttemptToken token = AttemptToken.random();
            begin(store, start(record, token));

            assertThat(store.complete(token, ready, TIMEOUT)).isEqualTo(Either.right(ready));
            assertThat(store.heldBytes()).isEqualTo(ready.byteSize());
        }

        @Test
        void refusesACompletionOneByteOverAndLeavesTheRecordAsItWas() {
            CanonicalRecord.Projecting record = record(freshRunId(), 0);
            CanonicalRecord.Ready ready = readyOf(record, "raw".repeat(100), evidenceFound("found"));
            InMemoryCanonicalInvocationStore store =
                    InMemoryCanonicalInvocationStore.custom().clock(clock).maxBytes(ready.byteSize() - 1).build();
            AttemptToken token = AttemptToken.random();
            begin(store, start(record, token));

            assertThat(store.complete(token, ready, TIMEOUT)).isEqualTo(STORE_FULL);

            assertThat(store.find(record.key(), TIMEOUT).get()).isEqualTo(Option.some(record));
            assertThat(store.heldBytes()).isEqualTo(record.byteSize());
            // What the boundary does next: end the record small, by token. It always fits.
            Either<StoreFailure, CanonicalRecord.Final> ended =
                    store.end(record.key(), token, ErrorCode.STORE_FULL, clock.instant(), TIMEOUT);
            assertThat(ended.map(CanonicalRecord::errorCode)).isEqualTo(Either.right(Option.some(ErrorCode.STORE_FULL)));
            assertThat(store.heldBytes()).isEqualTo(ended.get().byteSize()).isLessThanOrEqualTo(record.byteSize());
        }

        @Test
        void reclaimsExpiredRecordsBeforeRefusingACompletion() {
            CanonicalRecord.Projecting filler = record(freshRunId(), 0);
            CanonicalRecord.Projecting record = record(freshRunId(), 1);
            CanonicalRecord.Ready ready = readyOf(record, "raw".repeat(100), evidenceFound("found"));
            InMemoryCanonicalInvocationStore store = InMemoryCanonicalInvocationStore.custom().clock(clock)
                    .maxBytes(filler.byteSize() + ready.byteSize() - 1).build();
            begin(store, new InvocationStart(filler, AttemptToken.random(), RUN_TOKEN, TTL.dividedBy(2),
                    Duration.ofSeconds(1), 10, 10, Long.MAX_VALUE));
            AttemptToken token = AttemptToken.random();
            begin(store, start(record, token));
            assertThat(store.complete(token, ready, TIMEOUT)).isEqualTo(STORE_FULL);

            clock.advance(TTL.dividedBy(2));

            assertThat(store.complete(token, ready, TIMEOUT)).isEqualTo(Either.right(ready));
            assertThat(store.heldBytes()).isEqualTo(ready.byteSize());
        }

        @Test
        void refusesACompletionWhoseOwnReclaimDropsItsExpiredRecordAndHoldsNoRoomForIt() {
            CanonicalRecord.Projecting record = record(freshRunId(), 0);
            CanonicalRecord.Ready ready = readyOf(record, "raw".repeat(100), evidenceFound("found"));
            // Each reading of this clock moves it on by the record TTL once stepping starts: the completion
            // finds its record live, runs out of room, and the reclaim it runs then finds that record expired.
            SteppingClock stepping = new SteppingClock(clock);
            InMemoryCanonicalInvocationStore store =
                    InMemoryCanonicalInvocationStore.custom().clock(stepping).maxBytes(ready.byteSize() - 1).build();
            AttemptToken token = AttemptToken.random();
            assertThat(begin(store, start(record, token)).isRight()).isTrue();

            stepping.step = TTL;
            Either<StoreFailure, ?> completed = store.complete(token, ready, TIMEOUT);
            stepping.step = Duration.ZERO;

            assertThat(completed).isEqualTo(Either.left(StoreFailure.refused(Refusal.EXPIRED)));
            assertThat(store.find(record.key(), TIMEOUT)).isEqualTo(Either.right(Option.none()));
            assertThat(store.heldBytes()).as("the reclaim gave the record's room back, and the completion took none").isZero();
        }

        @Test
        void givesEveryByteBackWhenEverythingHasExpired() {
            InMemoryCanonicalInvocationStore store = InMemoryCanonicalInvocationStore.custom().clock(clock).build();
            for (int i = 0; i < 20; i++) {
                CanonicalRecord.Projecting record = record(freshRunId(), i);
                AttemptToken token = AttemptToken.random();
                begin(store, start(record, token));
                if (i % 3 == 0) {
                    store.complete(token, readyOf(record, "raw " + i, evidenceFound("found")), TIMEOUT);
                } else if (i % 3 == 1) {
                    store.end(record.key(), token, ErrorCode.STORE_FULL, clock.instant(), TIMEOUT);
                }
            }
            assertThat(store.heldBytes()).isPositive();
            clock.advance(TTL);

            store.purgeExpired();

            assertThat(store.heldBytes()).isZero();
            assertThat(store.size()).isZero();
        }
    }

    @Nested
    class Racing {

        private static final int THREADS = 8;
        private static final int ROUNDS = 50;

        @Test
        void threadsFillingTheStoreNeverOvershootMaxRecords() throws Exception {
            raceToTheBound("maxRecords", () -> InMemoryCanonicalInvocationStore.custom().clock(clock).maxRecords(100).build(), 100);
        }

        @Test
        void threadsFillingTheStoreNeverOvershootMaxBytes() throws Exception {
            raceToTheBound("maxBytes", () -> InMemoryCanonicalInvocationStore.custom().clock(clock).maxBytes(100 * RECORD_BYTES).build(),
                    100);
        }

        private void raceToTheBound(String boundName, java.util.function.Supplier<InMemoryCanonicalInvocationStore> stores, int bound)
                throws Exception {
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            try {
                long overshoots = 0;
                long accepted = 0;
                for (int round = 0; round < ROUNDS; round++) {
                    InMemoryCanonicalInvocationStore store = stores.get();
                    CountDownLatch go = new CountDownLatch(1);
                    List<Future<List<InvocationKey>>> racers = new ArrayList<>();
                    for (int t = 0; t < THREADS; t++) {
                        racers.add(pool.submit(() -> {
                            go.await();
                            List<InvocationKey> mine = new ArrayList<>();
                            for (int i = 0; i < 2 * bound / THREADS; i++) {
                                // Fresh runs (all stripes), ids of one length: every record has the same size.
                                CanonicalRecord.Projecting record = record(freshRunId(), i);
                                Either<StoreFailure, ?> begun = begin(store, record);
                                if (begun.isRight()) {
                                    mine.add(record.key());
                                } else {
                                    assertThat(begun).isEqualTo(STORE_FULL);
                                }
                            }
                            return mine;
                        }));
                    }
                    go.countDown();
                    long live = 0;
                    long told = 0;
                    for (Future<List<InvocationKey>> racer : racers) {
                        for (InvocationKey key : racer.get(30, TimeUnit.SECONDS)) {
                            told++;
                            live += store.find(key, TIMEOUT).get().isDefined() ? 1 : 0;
                        }
                    }
                    assertThat(live).isEqualTo(told);
                    overshoots += Math.max(0, told - bound);
                    accepted += told;
                    assertThat(told).as("round %s", round).isEqualTo(bound);
                    assertThat(store.heldBytes()).isEqualTo(bound * RECORD_BYTES);
                }
                System.out.printf("RELIABILITY bound-race/inmemory-%s bound=%d threads=%d rounds=%d calls=%d accepted=%d overshoots=%d%n",
                        boundName, bound, THREADS, ROUNDS, (long) ROUNDS * THREADS * (2 * bound / THREADS), accepted, overshoots);
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Nested
    class Configuration {

        @Test
        void refusesNonPositiveBoundsNamingTheField() {
            assertThatThrownBy(() -> InMemoryCanonicalInvocationStore.custom().maxRecords(0))
                    .isInstanceOf(IllegalArgumentException.class).hasMessage("maxRecords must be positive, was 0");
            assertThatThrownBy(() -> InMemoryCanonicalInvocationStore.custom().maxBytes(-1))
                    .isInstanceOf(IllegalArgumentException.class).hasMessage("maxBytes must be positive, was -1");
            assertThatThrownBy(() -> InMemoryCanonicalInvocationStore.custom().recordCapBytes(0))
                    .isInstanceOf(IllegalArgumentException.class).hasMessage("recordCapBytes must be positive, was 0");
            assertThatThrownBy(() -> InMemoryCanonicalInvocationStore.custom().clock(null))
                    .isInstanceOf(NullPointerException.class).hasMessage("clock is null");
        }

        @Test
        void defaultsToAQuarterOfTheHeapAtMost256MibAndOneRecordPer4KibAtMost100000() {
            long mib = 1024L * 1024;
            assertThat(InMemoryStoreBuilder.defaultMaxBytes(64 * mib)).isEqualTo(16 * mib);
            assertThat(InMemoryStoreBuilder.defaultMaxBytes(256 * mib)).isEqualTo(64 * mib);
            assertThat(InMemoryStoreBuilder.defaultMaxBytes(Long.MAX_VALUE)).isEqualTo(256 * mib);
            assertThat(InMemoryStoreBuilder.defaultMaxRecords(64 * mib)).isEqualTo(16_384);
            assertThat(InMemoryStoreBuilder.defaultMaxRecords(256 * mib)).isEqualTo(65_536);
            assertThat(InMemoryStoreBuilder.defaultMaxRecords(Long.MAX_VALUE)).isEqualTo(100_000);

            long heap = Runtime.getRuntime().maxMemory();
            InMemoryCanonicalInvocationStore store = InMemoryCanonicalInvocationStore.create();
            assertThat(store.maxBytes()).isEqualTo(InMemoryStoreBuilder.defaultMaxBytes(heap));
            assertThat(store.maxRecords()).isEqualTo(InMemoryStoreBuilder.defaultMaxRecords(heap));
            assertThat(store.recordCapBytes()).isEmpty();
        }

        @Test
        void keepsTheOlderFactories() {
            InMemoryCanonicalInvocationStore capped = InMemoryCanonicalInvocationStore.create(clock, 4096);
            assertThat(capped.recordCapBytes()).hasValue(4096);
            assertThat(capped.maxRecords()).isEqualTo(InMemoryCanonicalInvocationStore.create().maxRecords());
        }
    }

    @Nested
    class ThroughTheBoundary {

        private final RunContext run = Fixtures.anyRunContext().opened(RUN_TOKEN);

        @Test
        void aRawResponseThatDoesNotFitEndsTheRecordInStoreFull() {
            CountingExecutor tool = FakeTools.counting(FakeTools.returningBytes(10_000));
            InMemoryCanonicalInvocationStore store =
                    InMemoryCanonicalInvocationStore.custom().clock(clock).maxBytes(4_096).build();
            ToolBoundary boundary = boundary(store, tool);
            ToolCallEnvelope call = Fixtures.envelope(run).build();

            assertThat(boundary.invoke(run, call)).isEqualTo(Either.left(BoundaryError.of(ErrorCode.STORE_FULL)));

            CanonicalRecord record = store.find(InvocationKey.of(run.runId(), new ToolCallId(call.toolCallId())), TIMEOUT).get().get();
            assertThat(record).isInstanceOf(CanonicalRecord.Failed.class);
            assertThat(record.errorCode()).isEqualTo(Option.some(ErrorCode.STORE_FULL));
            assertThat(record.rawResponse()).isEmpty();
            assertThat(tool.executions()).isEqualTo(1);
            assertThat(boundary.invoke(run, call)).isEqualTo(Either.left(BoundaryError.of(ErrorCode.DUPLICATE_TOOL_CALL)));
            assertThat(tool.executions()).isEqualTo(1);
        }

        @Test
        void aFullStoreRefusesTheCallBeforeTheToolRuns() {
            CountingExecutor tool = FakeTools.counting(FakeTools.returning("raw"));
            InMemoryCanonicalInvocationStore store =
                    InMemoryCanonicalInvocationStore.custom().clock(clock).maxRecords(1).build();
            ToolBoundary boundary = boundary(store, tool);
            assertThat(boundary.invoke(run, Fixtures.envelope(run).build()).isRight()).isTrue();
            ToolCallEnvelope refused = Fixtures.envelope(run).build();

            assertThat(boundary.invoke(run, refused)).isEqualTo(Either.left(BoundaryError.of(ErrorCode.STORE_FULL)));

            assertThat(tool.executions()).isEqualTo(1);
            assertThat(store.find(InvocationKey.of(run.runId(), new ToolCallId(refused.toolCallId())), TIMEOUT).get()).isEmpty();
        }

        private ToolBoundary boundary(InMemoryCanonicalInvocationStore store, CountingExecutor tool) {
            OpenRuns.openIn(store, run);
            return ToolBoundary.builder().store(store).clock(clock).accessPolicy(AccessPolicy.allowAll())
                    .tool(ToolBinding.readOnly(Fixtures.DEFAULT_TOOL_NAME, tool, FakeProjectors.evidenceFound("found")))
                    .build();
        }
    }

    /** A clock that reads {@code clock} and then moves it on by {@code step}. */
    private static final class SteppingClock extends java.time.Clock {
        private final MutableClock clock;
        volatile Duration step = Duration.ZERO;

        SteppingClock(MutableClock clock) {
            this.clock = clock;
        }

        @Override
        public Instant instant() {
            Instant now = clock.instant();
            clock.advance(step);
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return clock.getZone();
        }

        @Override
        public java.time.Clock withZone(java.time.ZoneId zone) {
            throw new UnsupportedOperationException("the test's clock has one zone");
        }
    }
}
