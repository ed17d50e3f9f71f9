package io.toolboundary.tck.store;

import static io.toolboundary.tck.store.StoreRecordFixtures.GENEROUS_BUDGET;
import static io.toolboundary.tck.store.StoreRecordFixtures.RUN_TOKEN;
import static io.toolboundary.tck.store.StoreRecordFixtures.RUN_TTL;
import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static io.toolboundary.tck.store.StoreRecordFixtures.freshRunId;
import static io.toolboundary.tck.store.StoreRecordFixtures.projecting;
import static io.toolboundary.tck.store.StoreRecordFixtures.start;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryBuilder;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.InvocationStart;
import io.toolboundary.application.spi.RunOpening;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.testkit.MutableClock;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;

/**
 * How a store adapter's test hands its store to the contracts it implements: {@link #store()} is required, every other
 * hook refuses until implemented (docs/store-tck.md says which suite calls which). The default methods at the end are
 * the steps the contracts share.
 */
public interface StoreFixture {

    /** The store under test; one instance for every test will do, as each test works in a run of its own. */
    CanonicalInvocationStore store();

    /** The clock the boundary suites' boundaries read: a new one for each test, at the suite's start. */
    default MutableClock clock() {
        throw missing("clock()");
    }

    /** The clock the store's expiry follows, for a contract to move; none when the store keeps its own time. */
    default Option<MutableClock> storeClock() {
        throw missing("storeClock()");
    }

    /** The store's name in the {@code RELIABILITY} lines the reliability contracts print. */
    default String storeName() {
        throw missing("storeName()");
    }

    /** The time the record under {@code key} has left, read without changing it. */
    default Option<Duration> remainingTtl(InvocationKey key) {
        throw missing("remainingTtl(InvocationKey)");
    }

    /** Ends the record's life now, as if its TTL had run out; may be called from inside a tool. */
    default void expire(InvocationKey key) {
        throw missing("expire(InvocationKey)");
    }

    /** Ends the run's state now, as if its TTL (shorter than its records') had run out, leaving its records. */
    default void expireRun(RunId runId) {
        throw missing("expireRun(RunId)");
    }

    /**
     * Lets the store's own clock pass the record's execution lease ({@link StoreRecordFixtures#LEASE}), as if its tool's
     * process had stopped; nothing is needed (the default) for a store on {@link #clock()}, which the suites move.
     */
    default void passLease(InvocationKey key) {
    }

    /** The record limit, in UTF-8 bytes, that the store under test was built with. */
    default long maxRecordBytes() {
        throw missing("maxRecordBytes()");
    }

    /** Whether the store measures its records' lives on {@link #clock()}, so that TTL checks may be exact. */
    default boolean storeExpiresOnTheSuiteClock() {
        throw missing("storeExpiresOnTheSuiteClock()");
    }

    /** Rounds of the race of 64 threads calling one key through a boundary: 1,000; a slow store may run fewer. */
    default int sameKeyRaceRounds() {
        return 1_000;
    }

    /** Rounds of the race of many runs spending their budgets through a boundary: 100; a slow store may run fewer. */
    default int budgetRaceRounds() {
        return 100;
    }

    /** A call begun in a run of its own: its PROJECTING record and the token of the attempt that began it. */
    record Begun(CanonicalRecord.Projecting record, AttemptToken token) {

        /** The record's key. */
        public InvocationKey key() {
            return record.key();
        }
    }

    /** A run no other test uses, opened in the store with the token and TTL every helper start expects. */
    default RunId openedRun() {
        return opened(freshRunId());
    }

    /** Opens {@code runId}, which the store does not hold yet, as {@link #openedRun()} does. */
    default RunId opened(RunId runId) {
        assertThat(store().openRun(new RunOpening(runId, RUN_TOKEN, RUN_TTL), TIMEOUT)).as("open %s", runId)
                .isEqualTo(Either.right(RUN_TOKEN));
        return runId;
    }

    /** Begins {@code record} with {@link StoreRecordFixtures#start}, asserting it is created. */
    default void begin(CanonicalRecord.Projecting record, AttemptToken token) {
        assertThat(store().begin(start(record, token), TIMEOUT)).as("begin %s", record.key()).isEqualTo(Either.right(record));
    }

    /** Begins {@code record} with a new attempt token, asserting it is created; returns the token. */
    default AttemptToken begun(CanonicalRecord.Projecting record) {
        AttemptToken token = AttemptToken.random();
        begin(record, token);
        return token;
    }

    /** Begins {@code call_1} in a run of its own ({@link StoreRecordFixtures#projecting}), asserting it is created. */
    default Begun begunCall() {
        CanonicalRecord.Projecting record = projecting(openedRun(), "call_1");
        return new Begun(record, begun(record));
    }

    /** What the store answers a begin of {@code record} by a new attempt, with {@link StoreRecordFixtures#start}. */
    default Either<StoreFailure, CanonicalRecord.Projecting> beginAnew(CanonicalRecord.Projecting record) {
        return store().begin(start(record, AttemptToken.random()), TIMEOUT);
    }

    /** What the store answers a begin of {@code record} by a new attempt, within these budgets. */
    default Either<StoreFailure, CanonicalRecord.Projecting> beginAnew(CanonicalRecord.Projecting record, int runCallBudget,
            int toolCallBudget) {
        return store().begin(start(record, AttemptToken.random(), runCallBudget, toolCallBudget), TIMEOUT);
    }

    /** A start of {@code record} with {@code ttl} and {@code lease}, generous budgets and the store's record limit. */
    default InvocationStart startLiving(CanonicalRecord.Projecting record, AttemptToken token, Duration ttl,
            Duration lease) {
        return new InvocationStart(record, token, RUN_TOKEN, ttl, lease, GENEROUS_BUDGET, GENEROUS_BUDGET, maxRecordBytes());
    }

    /** Completes {@code outcome}'s record as the attempt of {@code token}. */
    default Either<StoreFailure, CanonicalRecord.Final> complete(CanonicalRecord.Final outcome, AttemptToken token) {
        return store().complete(token, outcome, TIMEOUT);
    }

    /** Completes {@code outcome}'s record as the attempt of {@code token}, asserting the store took and keeps it. */
    default void assertCompleted(CanonicalRecord.Final outcome, AttemptToken token) {
        assertThat(complete(outcome, token)).as("complete %s", outcome.key()).isEqualTo(Either.right(outcome));
        assertThat(stored(outcome.key())).isEqualTo(Option.some(outcome));
    }

    /** A boundary over the store, on the system clock, whose limits fit the store's record limit. */
    default ToolBoundary fittingBoundary(ToolBinding... tools) {
        long record = Math.min(ToolBoundaryConfig.DEFAULT_RECORD_BYTES, maxRecordBytes());
        ToolBoundaryConfig fitting = ToolBoundaryConfig.custom().recordLimitBytes(record)
                .argumentsLimitBytes(Math.min(ToolBoundaryConfig.DEFAULT_ARGUMENTS_BYTES, record))
                .rawResponseLimitBytes(Math.min(ToolBoundaryConfig.DEFAULT_RAW_RESPONSE_BYTES, record)).build();
        ToolBoundaryBuilder builder = ToolBoundary.builder().store(store()).accessPolicy(AccessPolicy.allowAll())
                .config(fitting);
        for (ToolBinding tool : tools) {
            builder.tool(tool);
        }
        return builder.build();
    }

    /** What the store finds under {@code key}, asserting the read itself succeeded. */
    default Option<CanonicalRecord> stored(InvocationKey key) {
        Either<StoreFailure, Option<CanonicalRecord>> found = store().find(key, TIMEOUT);
        assertThat(found.isRight()).as("find %s answered %s", key, found).isTrue();
        return found.get();
    }

    private UnsupportedOperationException missing(String hook) {
        return new UnsupportedOperationException(getClass().getSimpleName() + " runs a contract that calls "
                + hook + ": implement it from StoreFixture");
    }
}
