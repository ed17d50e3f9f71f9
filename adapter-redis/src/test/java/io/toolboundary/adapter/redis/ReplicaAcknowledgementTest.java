package io.toolboundary.adapter.redis;

import static io.toolboundary.adapter.redis.Records.key;
import static io.toolboundary.adapter.redis.Records.projecting;
import static io.toolboundary.adapter.redis.Records.ready;
import static io.toolboundary.adapter.redis.Records.start;
import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.BoundaryListener;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolExecutor;
import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.RunOpening;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.spi.Refusal;
import io.toolboundary.testkit.CountingExecutor;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.vavr.control.Either;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@link RedisStoreOptions.Builder#replicaAcknowledgement}: a master and one replica of the test's own;
 * the store asks for one replica within {@value #ACK_MILLIS} ms. With the replica up, writes succeed and
 * the replica has them; with the replica frozen ({@code SIGSTOP}), a write answers
 * {@code STORE_OUTCOME_UNKNOWN} after about that long, and through the boundary the tool does not run
 * (or, when the completion is not acknowledged, the agent gets no result and the harness gets the pair).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReplicaAcknowledgementTest {

    private static final long ACK_MILLIS = 300;
    private static final String PREFIX = "tback";
    private static final String TOOL = "search_logs";
    /** A try's reply may come up to about 100 ms after WAIT's timeout (Redis checks it at hz 10), plus scheduling. */
    private static final Duration ABOUT_THE_ACK_TIMEOUT = Duration.ofMillis(ACK_MILLIS + 700);

    private MasterAndReplica redis;
    private RedisCanonicalInvocationStore store;

    @BeforeAll
    void startAMasterAndAReplica() {
        redis = MasterAndReplica.start();
        store = RedisCanonicalInvocationStoreFactory.connectStandalone(redis.master.endpoint().uri(),
                RedisStoreOptions.custom().keyPrefix(PREFIX)
                        .replicaAcknowledgement(1, Duration.ofMillis(ACK_MILLIS)).build());
        // Load open.lua, begin.lua and complete.lua on the master. The replica's first acknowledgements
        // may take longer than the test's short timeout on a busy machine: open a run until one is confirmed.
        RunId warmUpRun = newRunOpenedWithin(Duration.ofSeconds(20));
        CanonicalRecord.Projecting warmUp = projecting(key(warmUpRun, "warm-up"), "{}");
        AttemptToken token = AttemptToken.random();
        assertThat(store.begin(start(warmUp, token), TIMEOUT).isRight()).isTrue();
        assertThat(store.complete(token, ready(warmUp, "raw", "result"), TIMEOUT).isRight()).isTrue();
    }

    private RunId newRunOpenedWithin(Duration patience) {
        long deadline = System.nanoTime() + patience.toNanos();
        while (true) {
            RunId run = Records.newRun();
            Either<StoreFailure, RunToken> opened = store.openRun(new RunOpening(run, Records.RUN_TOKEN, Records.RUN_TTL), TIMEOUT);
            if (opened.isRight() || System.nanoTime() - deadline > 0) {
                assertThat(opened).as("a warm-up run opened within %s", patience).isEqualTo(Either.right(Records.RUN_TOKEN));
                return run;
            }
        }
    }

    @AfterEach
    void thawTheReplica() {
        if (redis.replica.isFrozen()) {
            redis.replica.thaw();
        }
        redis.awaitInSync();
    }

    @AfterAll
    void stop() {
        store.close();
        redis.close();
    }

    @Test
    void withTheReplicaUpACallIsAcknowledgedAndTheReplicaHoldsTheRecord() {
        CanonicalRecord.Projecting record = projecting(key(newRunOpenedWithin(Duration.ofSeconds(20)), "call-1"), "{\"q\":1}");
        AttemptToken token = AttemptToken.random();

        assertThat(store.begin(start(record, token), TIMEOUT)).isEqualTo(Either.right(record));
        assertThat(store.complete(token, ready(record, "raw", "result"), TIMEOUT).isRight()).isTrue();

        // WAIT answered only once the replica had the writes: it holds the READY record, with its TTL.
        String recordKey = store.recordKey(record.key());
        assertThat(StoredRecord.status(redis.replica.call("GET", recordKey))).isEqualTo("READY");
        assertThat(redis.replica.callLong("PTTL", recordKey)).isPositive();
    }

    @Test
    void aSuccessfulCallCostsTwoScriptsAndTwoWaitsAndNoWaitWithoutTheOption() {
        CanonicalRecord.Projecting record = projecting(key(newRunOpenedWithin(Duration.ofSeconds(20)), "call-1"), "{}");
        AttemptToken token = AttemptToken.random();
        redis.master.call("CONFIG", "RESETSTAT");

        assertThat(store.begin(start(record, token), TIMEOUT).isRight()).isTrue();
        assertThat(store.complete(token, ready(record, "raw", "result"), TIMEOUT).isRight()).isTrue();

        Map<String, Long> calls = redis.masterCommandCalls();
        // the completion's raw response and script in one pipeline, with its WAIT behind
        assertThat(calls).containsEntry("evalsha", 2L).containsEntry("wait", 2L)
                .doesNotContainKeys("eval", "script", "multi", "exec");

        try (RedisCanonicalInvocationStore plain = RedisCanonicalInvocationStoreFactory.connectStandalone(
                redis.master.endpoint().uri(), RedisStoreOptions.custom().keyPrefix(PREFIX).build())) {
            CanonicalRecord.Projecting other = projecting(key(Records.openedRun(plain), "call-1"), "{}");
            AttemptToken otherToken = AttemptToken.random();
            redis.master.call("CONFIG", "RESETSTAT");

            assertThat(plain.begin(start(other, otherToken), TIMEOUT).isRight()).isTrue();
            assertThat(plain.complete(otherToken, ready(other, "raw", "result"), TIMEOUT).isRight()).isTrue();

            assertThat(redis.masterCommandCalls()).containsEntry("evalsha", 2L).doesNotContainKey("wait");
        }
    }

    @Test
    void withTheReplicaFrozenBeginAnswersOutcomeUnknownAfterAboutTheAckTimeout() {
        CanonicalRecord.Projecting record = projecting(key(newRunOpenedWithin(Duration.ofSeconds(20)), "call-1"), "{}");
        redis.replica.freeze();

        long started = System.nanoTime();
        Either<StoreFailure, CanonicalRecord.Projecting> begun = store.begin(start(record, AttemptToken.random()), TIMEOUT);
        Duration elapsed = Duration.ofNanos(System.nanoTime() - started);

        assertThat(begun).isEqualTo(Either.left(StoreFailure.outcomeUnknown()));
        assertThat(elapsed).isGreaterThanOrEqualTo(Duration.ofMillis(ACK_MILLIS)).isLessThan(ABOUT_THE_ACK_TIMEOUT);
        // The write is on the master, not known to be anywhere else.
        assertThat(StoredRecord.status(redis.master.call("GET", store.recordKey(record.key())))).isEqualTo("PROJECTING");
        System.out.println("RELIABILITY replica-ack/begin-frozen-replica elapsedMs=" + elapsed.toMillis());
    }

    @Test
    void aRefusalThatWroteNothingKeepsItsAnswerWhenTheReplicaIsFrozen() {
        CanonicalRecord.Projecting record = projecting(key(newRunOpenedWithin(Duration.ofSeconds(20)), "call-1"), "{}");
        assertThat(store.begin(start(record, AttemptToken.random()), TIMEOUT).isRight()).isTrue();
        redis.replica.freeze();

        assertThat(store.begin(start(record, AttemptToken.random()), TIMEOUT))
                .isEqualTo(Either.left(StoreFailure.refused(Refusal.DUPLICATE)));
    }

    @Test
    void throughTheBoundaryAFrozenReplicaAtBeginRunsNoToolAndHandsTheAttemptOver() {
        Harness harness = new Harness(FakeTools.returning("raw"));
        redis.replica.freeze();

        Either<BoundaryError, AgentResult> answer = harness.invoke("call-1");

        assertThat(answer).isEqualTo(Either.left(BoundaryError.of(ErrorCode.STORE_OUTCOME_UNKNOWN)));
        assertThat(harness.tool.executions()).isZero();
        // begin was not acknowledged; neither was the boundary's end by token (which the master holds):
        // the harness has the pair
        assertThat(harness.unfinished).hasSize(1);
        assertThat(StoredRecord.status(redis.master.call("GET", store.recordKey(harness.key("call-1"))))).isEqualTo("ERROR");

        redis.replica.thaw();
        redis.awaitInSync();
        Unfinished pair = harness.unfinished.get(0);
        CanonicalRecord.Final ended = harness.boundary.endUnfinished(pair.key(), pair.token()).get();
        assertThat(((CanonicalRecord.Failed) ended).code()).isEqualTo(ErrorCode.STORE_OUTCOME_UNKNOWN);
        assertThat(StoredRecord.status(redis.replica.call("GET", store.recordKey(pair.key())))).isEqualTo("ERROR");
        assertThat(harness.invoke("call-1")).isEqualTo(Either.left(BoundaryError.of(ErrorCode.DUPLICATE_TOOL_CALL)));
        assertThat(harness.tool.executions()).isZero();
    }

    @Test
    void throughTheBoundaryACompletionNotAcknowledgedGivesTheAgentNoResultAndTheHarnessThePair() {
        // The tool freezes the replica while it runs: begin was acknowledged, the completion cannot be.
        Harness harness = new Harness(request -> {
            redis.replica.freeze();
            return "raw";
        });

        Either<BoundaryError, AgentResult> answer = harness.invoke("call-1");

        assertThat(answer).isEqualTo(Either.left(BoundaryError.of(ErrorCode.STORE_OUTCOME_UNKNOWN)));
        assertThat(harness.tool.executions()).isEqualTo(1);
        assertThat(harness.unfinished).hasSize(1);
        String recordKey = store.recordKey(harness.key("call-1"));
        assertThat(StoredRecord.status(redis.master.call("GET", recordKey))).isEqualTo("READY");

        // Once the replica is back, ending the pair confirms the READY record, touching it so that the
        // acknowledgement covers the completion, whichever connection wrote it.
        redis.replica.thaw();
        redis.awaitInSync();
        Unfinished pair = harness.unfinished.get(0);
        assertThat(harness.boundary.endUnfinished(pair.key(), pair.token()).get())
                .isInstanceOf(CanonicalRecord.Ready.class);
        assertThat(StoredRecord.status(redis.replica.call("GET", recordKey))).isEqualTo("READY");
    }

    @Test
    void aRetryThatOnlyConfirmsAnEarlierWriteIsAcknowledgedThroughATouch() {
        CanonicalRecord.Projecting record = projecting(key(newRunOpenedWithin(Duration.ofSeconds(20)), "call-1"), "{}");
        AttemptToken token = AttemptToken.random();
        CanonicalRecord.Ready done = ready(record, "raw", "result");
        assertThat(store.begin(start(record, token), TIMEOUT).isRight()).isTrue();
        redis.replica.freeze();
        assertThat(store.complete(token, done, TIMEOUT).mapLeft(StoreFailure::code).getLeft()).isEqualTo(ErrorCode.STORE_OUTCOME_UNKNOWN);
        // The retry finds the completion applied (no write of its own) and still cannot prove it.
        assertThat(store.complete(token, done, TIMEOUT).mapLeft(StoreFailure::code).getLeft()).isEqualTo(ErrorCode.STORE_OUTCOME_UNKNOWN);
        redis.replica.thaw();
        redis.awaitInSync();
        String recordKey = store.recordKey(record.key());
        long ttlBefore = redis.master.callLong("PTTL", recordKey);
        redis.master.call("SCRIPT", "LOAD", LuaScripts.TOUCH.source());
        redis.master.call("CONFIG", "RESETSTAT");

        assertThat(store.complete(token, done, TIMEOUT)).isEqualTo(Either.right(done));

        // the final record's SET (XX: no pending key left, nothing written), complete.lua (STRLEN, GET, DEL:
        // FINAL), WAIT; touch.lua (TYPE, GETRANGE, SETRANGE of the record's first byte), WAIT
        Map<String, Long> calls = redis.masterCommandCalls();
        assertThat(calls).containsEntry("evalsha", 2L).containsEntry("wait", 2L).containsEntry("set", 1L)
                .containsEntry("strlen", 1L).containsEntry("get", 1L).containsEntry("del", 1L)
                .containsEntry("type", 1L).containsEntry("getrange", 1L).containsEntry("setrange", 1L)
                .doesNotContainKeys("eval", "script", "pexpire", "expire", "persist", "rename");
        assertThat(redis.master.callLong("PTTL", recordKey)).isPositive().isLessThanOrEqualTo(ttlBefore);
    }

    @Test
    void aScriptTheMasterLostIsLoadedByRunningItOnceAndThenAcknowledged() {
        CanonicalRecord.Projecting record = projecting(key(newRunOpenedWithin(Duration.ofSeconds(20)), "call-1"), "{}");
        AttemptToken token = AttemptToken.random();
        redis.master.call("SCRIPT", "FLUSH");

        assertThat(store.begin(start(record, token), TIMEOUT)).isEqualTo(Either.right(record));
        assertThat(store.complete(token, ready(record, "raw", "result"), TIMEOUT).isRight()).isTrue();

        assertThat(StoredRecord.status(redis.replica.call("GET", store.recordKey(record.key())))).isEqualTo("READY");
    }

    @Test
    void aMasterWithTooFewGoodReplicasForMinReplicasToWriteRefusesBeforeAnyWrite() {
        CanonicalRecord.Projecting record = projecting(key(newRunOpenedWithin(Duration.ofSeconds(20)), "call-1"), "{}");
        redis.master.call("CONFIG", "SET", "min-replicas-to-write", "2");
        try {
            assertThat(store.begin(start(record, AttemptToken.random()), Duration.ofMillis(300)))
                    .isEqualTo(Either.left(StoreFailure.unavailable()));
        } finally {
            redis.master.call("CONFIG", "SET", "min-replicas-to-write", "0");
        }
        assertThat(redis.master.keys(PREFIX + ":{" + record.key().runId().value() + "}:*"))
                .as("the run's state, opened before, and no record").containsExactly(store.runKey(record.key().runId()));
    }

    /** A boundary over the store, with a counting tool and a listener that keeps the handed-over pairs. */
    private final class Harness {
        final CountingExecutor tool;
        final List<Unfinished> unfinished = new CopyOnWriteArrayList<>();
        final RunContext run;
        final ToolBoundary boundary;

        Harness(ToolExecutor executor) {
            this.tool = FakeTools.counting(executor);
            this.boundary = ToolBoundary.builder()
                    .store(store)
                    .config(ToolBoundaryConfig.ofDefaults())
                    .accessPolicy(AccessPolicy.allowAll())
                    .listener(new BoundaryListener() {
                        @Override
                        public void onUnfinished(InvocationKey key, AttemptToken token) {
                            unfinished.add(new Unfinished(key, token));
                        }
                    })
                    .tool(ToolBinding.readOnly(TOOL, tool, (request, raw) -> Projection.evidenceFound("found")))
                    .build();
            this.run = Fixtures.opened(boundary, Fixtures.anyRunContext());
        }

        Either<BoundaryError, AgentResult> invoke(String toolCallId) {
            return boundary.invoke(run, Fixtures.envelope(run).withToolCallId(toolCallId).withToolName(TOOL).build());
        }

        InvocationKey key(String toolCallId) {
            return Records.key(run.runId(), toolCallId);
        }
    }

    private record Unfinished(InvocationKey key, AttemptToken token) {
    }
}
