package io.toolboundary.adapter.inmemory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Options;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * The in-memory store's histories are linearizable: Lincheck runs scenarios of concurrent opens, begins,
 * completions, ends, abandonments and reads ({@link StoreOperations}) against the real store, with the store's
 * clock moved between the concurrent parts ({@link TimeBetweenPhases}), in stress mode and under its model
 * checker, and finds for each outcome an order of the operations, each at one instant within its call, in
 * which {@link StoreModel} answers exactly what the store answered. Besides Lincheck's random scenarios (drawn
 * from its fixed seed), both modes run the races that matter most, written out: two attempts beginning one
 * call, an attempt's completion against its end and an abandonment, and two openings of an expired run. A
 * failure prints the scenario and the interleaving that broke it. The clock does not move during the
 * concurrent part: a begin reads it before its record is visible to a find, which takes no lock, so with the
 * clock moving meanwhile a record may live shorter than its TTL by one begin's duration (docs/reliability.md).
 *
 * <p>The check is shown to bite: a store whose begin is a find and then a create ({@link NonAtomicBeginStore})
 * is rejected. Sized for CI; {@code -Dtoolboundary.lincheck.long=true} ({@code -Plincheck-long}) runs more
 * scenarios, longer ones and more invocations of each. Each run prints a {@code RELIABILITY} line.
 */
class InMemoryStoreLincheckTest {

    /** The system property that asks for the longer run. */
    static final String LONG_PROPERTY = "toolboundary.lincheck.long";

    private static final boolean LONG = Boolean.getBoolean(LONG_PROPERTY);
    private static final int THREADS = 3;
    private static final int ACTORS_PER_THREAD = LONG ? 4 : 3;
    private static final int ACTORS_BEFORE = LONG ? 3 : 2;
    private static final int ACTORS_AFTER = 2;
    private static final int OPERATIONS = THREADS * ACTORS_PER_THREAD + ACTORS_BEFORE + ACTORS_AFTER;
    /** The scenarios {@link #withRaces} adds. */
    private static final int RACES = 3;

    @Test
    void everyStressedHistoryIsLinearizable() {
        int scenarios = LONG ? 150 : 15;
        int invocations = LONG ? 5_000 : 400;
        check("stress", withRaces(shaped(new StressOptions())).iterations(scenarios)
                .invocationsPerIteration(invocations), StoreOperations.class, scenarios, RACES, invocations);
    }

    @Test
    void everyInterleavingTheModelCheckerTriesIsLinearizable() {
        int scenarios = LONG ? 60 : 6;
        int invocations = LONG ? 1_000 : 80;
        check("model-checking", withRaces(shaped(new ModelCheckingOptions())).iterations(scenarios)
                .invocationsPerIteration(invocations), StoreOperations.class, scenarios, RACES, invocations);
    }

    /**
     * A begin that looks before it creates lets two attempts of one call both be told their record was
     * created: the model checker finds that interleaving of two concurrent begins, every time.
     */
    @Test
    void aBeginThatFindsAndThenCreatesIsCaught() {
        int invocations = 1_000;
        ModelCheckingOptions options = shaped(new ModelCheckingOptions()).iterations(0)
                .invocationsPerIteration(invocations).addCustomScenario(twoAttemptsBeginOneCall());

        Throwable failure = catchThrowable(() -> check("model-checking", options, NonAtomicBegin.class, 0, 1, invocations));

        assertThat(failure).as("Lincheck's verdict on a non-atomic begin").isInstanceOf(LincheckAssertionError.class);
        String report = failure.getMessage();
        int interleaving = report.indexOf("The following interleaving");
        System.out.println(interleaving < 0 ? report : report.substring(0, interleaving));
    }

    /** The operations on a store whose begin is {@link NonAtomicBeginStore}'s. */
    public static final class NonAtomicBegin extends StoreOperations {
        /** Drives a fresh in-memory store through a non-atomic begin. */
        public NonAtomicBegin() {
            super(NonAtomicBeginStore::new);
        }
    }

    private static <O extends Options<O, ?>> O shaped(O options) {
        return options.threads(THREADS).actorsPerThread(ACTORS_PER_THREAD).actorsBefore(ACTORS_BEFORE)
                .actorsAfter(ACTORS_AFTER).executionGenerator(TimeBetweenPhases.class)
                .sequentialSpecification(StoreModel.class);
    }

    /** {@code options} with the written-out races, run before the random scenarios. */
    private static <O extends Options<O, ?>> O withRaces(O options) {
        return options.addCustomScenario(twoAttemptsBeginOneCall())
                // Attempt 1's record, its lease passed: its completion, its end and an abandonment race.
                .addCustomScenario(scenario(List.of(actor("begin", 0, 0, 1), actor("advance")),
                        List.of(List.of(actor("complete", 0, 0, 1)), List.of(actor("abandon", 0)),
                                List.of(actor("end", 0, 1))),
                        List.of(actor("find", 0))))
                // The run expired: two openings with different tokens race, each followed by a begin.
                .addCustomScenario(scenario(List.of(actor("advance"), actor("advance"), actor("advance")),
                        List.of(List.of(actor("openRun", 1), actor("begin", 0, 0, 1)),
                                List.of(actor("openRun", 2), actor("begin", 1, 1, 2))),
                        List.of(actor("find", 0), actor("find", 1))));
    }

    /** Two attempts begin the same call of the same tool at once: exactly one may be told it was created. */
    private static ExecutionScenario twoAttemptsBeginOneCall() {
        return scenario(List.of(), List.of(List.of(actor("begin", 0, 0, 1)), List.of(actor("begin", 0, 0, 2))),
                List.of(actor("find", 0)));
    }

    private static ExecutionScenario scenario(List<Actor> before, List<List<Actor>> concurrent, List<Actor> after) {
        return new ExecutionScenario(before, concurrent, after, null);
    }

    /** An operation of {@link StoreOperations} with its int arguments, for a scenario written out. */
    private static Actor actor(String operation, int... arguments) {
        Class<?>[] types = new Class<?>[arguments.length];
        Arrays.fill(types, int.class);
        try {
            return new Actor(StoreOperations.class.getMethod(operation, types),
                    Arrays.stream(arguments).boxed().collect(Collectors.toList()), false, false, false, false, false);
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(operation, e);
        }
    }

    /**
     * Runs Lincheck, prints the run's RELIABILITY line (random scenarios, threads and operations of each,
     * scenarios written out, invocations of each scenario), and lets a failure and its interleaving through.
     */
    private static void check(String mode, Options<?, ?> options, Class<? extends StoreOperations> operations,
            int scenarios, int written, int invocations) {
        String store = operations == StoreOperations.class ? "in-memory" : "in-memory-non-atomic-begin";
        long started = System.nanoTime();
        int violations = 0;
        try {
            options.check(operations);
        } catch (LincheckAssertionError e) {
            violations = 1;
            throw e;
        } finally {
            System.out.println("RELIABILITY lincheck/" + store + " mode=" + mode + " scenarios=" + scenarios
                    + " threads=" + THREADS + " operations=" + OPERATIONS + " written=" + written + " invocations=" + invocations
                    + " violations=" + violations + " ms=" + (System.nanoTime() - started) / 1_000_000);
        }
    }
}
