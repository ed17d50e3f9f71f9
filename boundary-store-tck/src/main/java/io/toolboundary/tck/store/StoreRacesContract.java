package io.toolboundary.tck.store;

import static io.toolboundary.tck.store.StoreChecks.BOUNDARY_RACERS;
import static io.toolboundary.tck.store.StoreChecks.RACERS;
import static io.toolboundary.tck.store.StoreChecks.RACE_TOOL;
import static io.toolboundary.tck.store.StoreChecks.ROUNDS;
import static io.toolboundary.tck.store.StoreChecks.race;
import static io.toolboundary.tck.store.StoreChecks.raceOn;
import static io.toolboundary.tck.store.StoreChecks.refused;
import static io.toolboundary.tck.store.StoreRecordFixtures.RUN_TOKEN;
import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static io.toolboundary.tck.store.StoreRecordFixtures.evidenceFound;
import static io.toolboundary.tck.store.StoreRecordFixtures.failedOf;
import static io.toolboundary.tck.store.StoreRecordFixtures.projecting;
import static io.toolboundary.tck.store.StoreRecordFixtures.readyOf;
import static io.toolboundary.tck.store.StoreRecordFixtures.start;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.ToolExecutor;
import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.spi.Refusal;
import io.toolboundary.testkit.CountingExecutor;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * Proves a store atomic under races: one of 32 racing begins creates the record, one of 32 racing completions
 * is stored, and through a {@link ToolBoundary} 64 threads calling one key run the tool once while racing runs
 * keep their budgets; no test sleeps. Calls {@link #store()}, {@link #maxRecordBytes()},
 * {@link #sameKeyRaceRounds()} and {@link #budgetRaceRounds()}.
 */
public interface StoreRacesContract extends StoreFixture {
    // Races through a boundary

    @Test
    default void runsTheToolExactlyOnceInEachRoundOf64ThreadsCallingOneKey() throws Exception {
        int rounds = sameKeyRaceRounds();
        assertThat(rounds).as("rounds").isPositive();
        record Round(CountingExecutor tool, ToolBoundary boundary, RunContext run, ToolCallEnvelope call,
                List<Either<BoundaryError, AgentResult>> results) {
        }
        List<Round> all = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            CountingExecutor tool = FakeTools.counting(FakeTools.returning("raw " + round));
            ToolBinding binding = ToolBinding.readOnly(RACE_TOOL, tool, FakeProjectors.evidenceFound("found"));
            RunContext run = RunContext.active(openedRun(), Fixtures.FAR_FUTURE, RunContext.UNLIMITED).opened(RUN_TOKEN);
            all.add(new Round(tool, fittingBoundary(binding), run, Fixtures.envelope(run).withToolName(RACE_TOOL).build(),
                    Collections.synchronizedList(new ArrayList<>())));
        }
        // Each racer plays every round; a barrier releases the 64 calls of a round together.
        CyclicBarrier roundStart = new CyclicBarrier(BOUNDARY_RACERS);
        ExecutorService pool = Executors.newFixedThreadPool(BOUNDARY_RACERS);
        try {
            List<Future<?>> racers = new ArrayList<>();
            for (int racer = 0; racer < BOUNDARY_RACERS; racer++) {
                racers.add(pool.submit(() -> {
                    for (Round round : all) {
                        roundStart.await(60, SECONDS);
                        round.results().add(round.boundary().invoke(round.run(), round.call()));
                    }
                    return null;
                }));
            }
            for (Future<?> racer : racers) {
                racer.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }

        for (int round = 0; round < rounds; round++) {
            Round played = all.get(round);
            assertThat(played.tool().executions()).as("executions in round %d", round).isEqualTo(1);
            assertThat(played.results().stream().filter(Either::isRight).toList()).as("results in round %d", round)
                    .containsExactly(Either.right(evidenceFound("found")));
            assertThat(played.results().stream().filter(Either::isLeft).toList()).as("refusals in round %d", round)
                    .hasSize(BOUNDARY_RACERS - 1)
                    .allSatisfy(result -> assertThat(result)
                            .isEqualTo(Either.left(BoundaryError.of(ErrorCode.DUPLICATE_TOOL_CALL))));
            InvocationKey key = InvocationKey.of(played.run().runId(), new ToolCallId(played.call().toolCallId()));
            assertThat(stored(key).map(CanonicalRecord::status)).as("record of round %d", round)
                    .isEqualTo(Option.some(InvocationStatus.READY));
        }
        long executions = all.stream().mapToLong(round -> round.tool().executions()).sum();
        System.out.printf("RELIABILITY race-one-key/%s rounds=%d threads=%d calls=%d executions=%d duplicateExecutions=%d%n",
                getClass().getSimpleName(), rounds, BOUNDARY_RACERS,
                (long) rounds * BOUNDARY_RACERS, executions, executions - rounds);
    }

    @Test
    default void keepsEveryRunWithinItsBudgetsWhenManyRunsRaceTheirCalls() throws Exception {
        int rounds = budgetRaceRounds();
        assertThat(rounds).as("rounds").isPositive();
        int runs = 16;
        int attemptsPerRun = 8;
        int toolBudget = 5;
        ExecutorService pool = Executors.newFixedThreadPool(BOUNDARY_RACERS);
        try {
            for (int round = 0; round < rounds; round++) {
                Map<RunId, AtomicInteger> executions = new ConcurrentHashMap<>();
                ToolExecutor tool = request -> {
                    executions.computeIfAbsent(request.key().runId(), run -> new AtomicInteger()).incrementAndGet();
                    return "raw";
                };
                ToolBoundary boundary = fittingBoundary(ToolBinding.readOnly(RACE_TOOL, tool,
                        FakeProjectors.evidenceFound("found")).withCallBudgetPerRun(toolBudget));
                List<RunContext> contexts = new ArrayList<>();
                List<ToolCallEnvelope> calls = new ArrayList<>();
                for (int r = 0; r < runs; r++) {
                    RunContext run = RunContext.active(openedRun(), Fixtures.FAR_FUTURE, (r + round) % 9).opened(RUN_TOKEN);
                    contexts.add(run);
                    for (int a = 0; a < attemptsPerRun; a++) {
                        calls.add(Fixtures.envelope(run).withToolName(RACE_TOOL).withToolCallId("call_" + a)
                                .withArguments("{\"attempt\":" + a + "}").build());
                    }
                }
                Collections.shuffle(calls, new Random(round));
                Map<String, RunContext> byRun = contexts.stream()
                        .collect(Collectors.toMap(run -> run.runId().value(), run -> run));
                AtomicInteger next = new AtomicInteger();
                Map<RunId, List<Either<BoundaryError, AgentResult>>> results = new ConcurrentHashMap<>();

                raceOn(pool, BOUNDARY_RACERS, i -> {
                    for (int c = next.getAndIncrement(); c < calls.size(); c = next.getAndIncrement()) {
                        ToolCallEnvelope call = calls.get(c);
                        RunContext run = byRun.get(call.runId());
                        Either<BoundaryError, AgentResult> result = boundary.invoke(run, call);
                        results.computeIfAbsent(run.runId(), id -> Collections.synchronizedList(new ArrayList<>()))
                                .add(result);
                    }
                    return null;
                });

                for (RunContext run : contexts) {
                    int expected = Math.min(attemptsPerRun, Math.min(toolBudget, run.callBudget()));
                    // The refusal names the budget that ran out.
                    BoundaryError refusal = run.callBudget() <= toolBudget
                            ? BoundaryError.overLimit(ErrorCode.RUN_BUDGET_EXHAUSTED, run.callBudget())
                            : BoundaryError.overLimit(ErrorCode.TOOL_BUDGET_EXHAUSTED, toolBudget);
                    List<Either<BoundaryError, AgentResult>> outcomes = results.get(run.runId());
                    long created = IntStream.range(0, attemptsPerRun)
                            .filter(a -> stored(InvocationKey.of(run.runId(), new ToolCallId("call_" + a))).isDefined())
                            .count();
                    String what = "run with budgets " + run.callBudget() + "/" + toolBudget + " in round " + round;
                    assertThat(created).as("records of %s", what).isEqualTo(expected);
                    assertThat(executions.getOrDefault(run.runId(), new AtomicInteger()).get())
                            .as("executions of %s", what).isEqualTo(expected);
                    assertThat(outcomes).as("outcomes of %s", what).hasSize(attemptsPerRun);
                    assertThat(outcomes.stream().filter(Either::isRight).count()).as("successes of %s", what)
                            .isEqualTo(expected);
                    assertThat(outcomes.stream().filter(Either::isLeft).toList()).as("refusals of %s", what)
                            .allSatisfy(result -> assertThat(result).isEqualTo(Either.left(refusal)));
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    // Races on the store

    @RepeatedTest(value = ROUNDS, name = "round {currentRepetition} of {totalRepetitions}")
    default void letsExactlyOneOf32RacingBeginsCreateTheRecord() throws Exception {
        CanonicalRecord.Projecting record = projecting(openedRun(), "call_1");
        List<AttemptToken> tokens = IntStream.range(0, RACERS).mapToObj(i -> AttemptToken.random()).toList();

        List<Either<StoreFailure, CanonicalRecord.Projecting>> results =
                race(i -> store().begin(start(record, tokens.get(i)), TIMEOUT));

        assertThat(results.stream().filter(Either::isRight).toList()).containsExactly(Either.right(record));
        assertThat(results.stream().filter(Either::isLeft).toList())
                .hasSize(RACERS - 1)
                .allSatisfy(result -> assertThat(result).isEqualTo(refused(Refusal.DUPLICATE)));
        assertThat(stored(record.key())).isEqualTo(Option.some(record));

        AttemptToken winner = tokens.get(results.indexOf(Either.right(record)));
        CanonicalRecord.Ready ready = readyOf(record);
        assertThat(complete(ready, winner)).isEqualTo(Either.right(ready));
    }

    @RepeatedTest(value = ROUNDS, name = "round {currentRepetition} of {totalRepetitions}")
    default void storesExactlyOneOf32RacingCompletions() throws Exception {
        Begun call = begunCall();
        List<CanonicalRecord.Final> outcomes = IntStream.range(0, RACERS)
                .mapToObj(i -> i % 2 == 0
                        ? (CanonicalRecord.Final) readyOf(call.record(), "raw " + i, evidenceFound("found " + i))
                        : failedOf(call.record(), ErrorCode.EXECUTION_FAILED, Option.some("raw " + i)))
                .toList();

        List<Either<StoreFailure, CanonicalRecord.Final>> results =
                race(i -> store().complete(call.token(), outcomes.get(i), TIMEOUT));

        CanonicalRecord stored = stored(call.key()).get();
        assertThat(outcomes).contains((CanonicalRecord.Final) stored);
        CanonicalRecord.Final won = (CanonicalRecord.Final) stored;
        assertThat(results.get(outcomes.indexOf(stored))).isEqualTo(Either.right(won));
        assertThat(results.stream().filter(Either::isRight).map(Either::get).collect(Collectors.toSet()))
                .containsExactly(won);
        assertThat(results.stream().filter(Either::isLeft).toList())
                .allSatisfy(result -> assertThat(result).isEqualTo(refused(Refusal.CONFLICT)));
    }
}
