package io.toolboundary.tck.store;

import static io.toolboundary.tck.store.StoreRecordFixtures.RUN_TOKEN;
import static io.toolboundary.tck.store.StoreRecordFixtures.RUN_TTL;
import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static io.toolboundary.tck.store.StoreRecordFixtures.freshRunId;
import static io.toolboundary.tck.store.StoreRecordFixtures.start;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.AttemptToken;
import io.toolboundary.application.CanonicalInvocationStore;
import io.toolboundary.application.RunOpening;
import io.toolboundary.application.StoreFailure;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryBuilder;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.Completion;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.testkit.MutableClock;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;

/**
 * How a store adapter's test hands its store to the contracts: the test class implements this interface and the
 * contract interfaces it runs. {@link #store()} is required; every other hook refuses by default, and each contract
 * names the hooks it calls. JUnit makes a new test instance for each test, so what the implementing class keeps in
 * fields (a clock, a store built on it) is fresh for each test. The default methods at the end are the steps the store
 * contracts share.
 */
public interface StoreFixture {

    /**
     * The store under test; may be the same instance for every test. Every test works in a run of its own, so one
     * shared store on one shared server is enough.
     */
    CanonicalInvocationStore store();

    /**
     * The clock the boundaries of the boundary suites read; a new one for each test, standing at the suite's start. A
     * store built on it follows it; the implementing class holds it in a field.
     */
    default MutableClock clock() {
        throw missing("clock()");
    }

    /**
     * The clock the store's expiry follows, when a contract may move it; none when the store keeps its own time (then
     * records end through {@link #expire(InvocationKey)}).
     */
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

    /**
     * Ends the life of the record under {@code key} now, as if its time to live had run out. May be called from inside
     * a tool, while the boundary waits for it.
     */
    default void expire(InvocationKey key) {
        throw missing("expire(InvocationKey)");
    }

    /**
     * Ends the life of the run's state now, as if its time to live had run out, leaving its records as they are. The
     * run was opened for less time than its records live.
     */
    default void expireRun(RunId runId) {
        throw missing("expireRun(RunId)");
    }

    /**
     * Lets the store's own clock pass the execution lease of the record under {@code key}, as if the process running
     * its tool had stopped {@link StoreRecordFixtures#LEASE} ago: a store on a test clock moves that clock by {@link
     * StoreRecordFixtures#LEASE}; a store on a server's clock may move the stored lease's end to the past. A store on
     * {@link #clock()}, which the boundary suites move past the lease themselves, needs nothing more (the default).
     */
    default void passLease(InvocationKey key) {
    }

    /** The record limit, in UTF-8 bytes, that the store under test was built with. */
    default long maxRecordBytes() {
        throw missing("maxRecordBytes()");
    }

    /**
     * Whether the store measures its records' lives on {@link #clock()}: then a record created at the suite's start has
     * exactly the boundary's TTL left until the clock moves, and dies when the clock reaches its expiry.
     */
    default boolean storeExpiresOnTheSuiteClock() {
        throw missing("storeExpiresOnTheSuiteClock()");
    }

    /**
     * Rounds of the race of 64 threads calling one key through a boundary: 1,000. A store whose round trips are slow
     * may run fewer; at least one.
     */
    default int sameKeyRaceRounds() {
        return 1_000;
    }

    /**
     * Rounds of the race of many runs spending their budgets at once through a boundary: 100. A store whose round trips
     * are slow may run fewer; at least one.
     */
    default int budgetRaceRounds() {
        return 100;
    }

    /**
     * A run no other test uses, opened in the store with {@link StoreRecordFixtures#RUN_TOKEN} for {@link
     * StoreRecordFixtures#RUN_TTL}, as every helper start expects.
     */
    default RunId openedRun() {
        return opened(freshRunId());
    }

    /**
     * Opens {@code runId}, which the store does not hold yet, with {@link StoreRecordFixtures#RUN_TOKEN} for {@link
     * StoreRecordFixtures#RUN_TTL}, as every helper start expects.
     */
    default RunId opened(RunId runId) {
        assertThat(store().openRun(new RunOpening(runId, RUN_TOKEN, RUN_TTL), TIMEOUT)).as("open %s", runId)
                .isEqualTo(Either.right(RUN_TOKEN));
        return runId;
    }

    /**
     * Begins {@code record} with {@link StoreRecordFixtures#start(CanonicalRecord.Projecting, AttemptToken)}, asserting
     * it is created.
     */
    default void begin(CanonicalRecord.Projecting record, AttemptToken token) {
        assertThat(store().begin(start(record, token), TIMEOUT)).as("begin %s", record.key()).isEqualTo(Either.right(record));
    }

    /** Begins {@code record} with a new attempt token, asserting it is created; returns the token. */
    default AttemptToken begun(CanonicalRecord.Projecting record) {
        AttemptToken token = AttemptToken.random();
        begin(record, token);
        return token;
    }

    /** Completes {@code outcome}'s record as the attempt of {@code token}. */
    default Either<StoreFailure, Completion> complete(CanonicalRecord.Final outcome, AttemptToken token) {
        return store().complete(outcome.key(), token, outcome.completion(), TIMEOUT);
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
