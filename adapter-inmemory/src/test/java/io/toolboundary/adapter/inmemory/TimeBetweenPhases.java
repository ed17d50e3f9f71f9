package io.toolboundary.adapter.inmemory;

import java.util.ArrayList;
import java.util.List;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.CTestStructure;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionGenerator;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.kotlinx.lincheck.execution.RandomExecutionGenerator;
import org.jetbrains.lincheck.datastructures.CTestConfiguration;
import org.jetbrains.lincheck.datastructures.RandomProvider;

/**
 * Lincheck's random scenarios with the store's clock still while operations run concurrently: each
 * {@code advance} drawn for the concurrent part moves to the start of the part after it, so time passes
 * between the parts (expired records and runs meet concurrent operations) but never during one.
 */
public final class TimeBetweenPhases extends ExecutionGenerator {

    private static final String ADVANCE = "advance";

    private final RandomExecutionGenerator random;

    /**
     * The generator Lincheck makes for a test.
     *
     * @param configuration the test's configuration
     * @param structure the test's operations
     * @param randomProvider the seeded randomness of the run
     */
    public TimeBetweenPhases(CTestConfiguration configuration, CTestStructure structure,
            RandomProvider randomProvider) {
        super(configuration, structure);
        this.random = new RandomExecutionGenerator(configuration, structure, randomProvider);
    }

    @Override
    public ExecutionScenario nextExecution() {
        while (true) {
            ExecutionScenario drawn = random.nextExecution();
            List<Actor> moved = new ArrayList<>();
            List<List<Actor>> parallel = new ArrayList<>();
            for (List<Actor> thread : drawn.getParallelExecution()) {
                List<Actor> kept = new ArrayList<>();
                for (Actor actor : thread) {
                    (actor.getMethod().getName().equals(ADVANCE) ? moved : kept).add(actor);
                }
                parallel.add(kept);
            }
            if (parallel.stream().noneMatch(List::isEmpty)) {
                List<Actor> post = new ArrayList<>(moved);
                post.addAll(drawn.getPostExecution());
                return new ExecutionScenario(drawn.getInitExecution(), parallel, post, drawn.getValidationFunction());
            }
        }
    }
}
