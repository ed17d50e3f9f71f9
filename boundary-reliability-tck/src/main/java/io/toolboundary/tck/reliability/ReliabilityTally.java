package io.toolboundary.tck.reliability;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

/**
 * The counts of one reliability run and the findings behind them. A run prints one line, {@code RELIABILITY <scenario>
 * calls=<n> rejected=<n> leaks=<n> unexpected=<n> duplicateExecutions=<n>}, and then fails when any finding was
 * recorded, quoting the first 20 and the seed that replays the run.
 */
final class ReliabilityTally {

    private final String scenario;
    private final long seed;
    private long calls;
    private long rejected;
    private long leaks;
    private long unexpected;
    private long duplicateExecutions;
    private long violations;
    private final List<String> findings = new ArrayList<>();

    /** A tally named {@code scenario} (for example {@code hostile-ids/in-memory}) of the run of {@code seed}. */
    ReliabilityTally(String scenario, long seed) {
        this.scenario = requireNonNull(scenario, "scenario is null");
        this.seed = seed;
    }

    /** One call through the boundary; {@code wasRejected} when it ended in an error. */
    void call(boolean wasRejected) {
        calls++;
        if (wasRejected) {
            rejected++;
        }
    }

    /** Something the agent received held a forbidden fragment. */
    void leak(int attempt, String what) {
        leaks++;
        note(attempt, "leak: " + what);
    }

    /** A throwable escaped the boundary or the store. */
    void unexpected(int attempt, Throwable failure) {
        unexpected++;
        note(attempt, "unexpected " + failure.getClass().getName());
    }

    /** A tool ran more than once for one key. */
    void duplicateExecution(int attempt, String what) {
        duplicateExecutions++;
        note(attempt, "duplicate execution: " + what);
    }

    /** The outcome or the stored state was not the expected one. */
    void violation(int attempt, String what) {
        violations++;
        note(attempt, what);
    }

    /** Records a violation when {@code holds} is false. */
    void check(boolean holds, int attempt, String what) {
        if (!holds) {
            violation(attempt, what);
        }
    }

    /** Prints the line the README figures are collected from, then fails when anything was found. */
    void reportAndAssertClean() {
        System.out.println("RELIABILITY " + scenario + " calls=" + calls + " rejected=" + rejected + " leaks=" + leaks
                + " unexpected=" + unexpected + " duplicateExecutions=" + duplicateExecutions);
        assertThat(findings)
                .as("%s (seed %d): %d leaks, %d unexpected, %d duplicate executions, %d violations",
                        scenario, seed, leaks, unexpected, duplicateExecutions, violations)
                .isEmpty();
        assertThat(calls).as("calls made by %s", scenario).isPositive();
    }

    private void note(int attempt, String what) {
        if (findings.size() < 20) {
            findings.add("try " + attempt + ": " + what);
        }
    }
}
