package io.toolboundary.tck.boundary;

import io.toolboundary.application.RunContext;
import io.toolboundary.application.RunToken;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.testkit.CountingExecutor;
import io.toolboundary.testkit.CountingProjector;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One test's state in {@link ToolBoundarySpecContract}: its run (opened before the test begins), the
 * tool and projector its boundaries run, the tool that probes its budgets afterwards, and the
 * records its boundaries replayed. A test class
 * holds a new one in a field, so each test gets its own.
 */
public final class SpecState {

    private final RunContext run = Fixtures.anyRunContext().opened(RunToken.random());
    private final CountingExecutor executor = FakeTools.counting(FakeTools.returning(SpecValues.RAW));
    private final CountingProjector projector =
            FakeProjectors.counting(FakeProjectors.evidenceFound(SpecValues.RESULT));
    private final CountingExecutor budgetProbe = FakeTools.counting(FakeTools.returning(SpecValues.RAW));
    private final List<CanonicalRecord.Ready> replayed = new CopyOnWriteArrayList<>();

    /** A new state: a fresh run (not yet opened in any store), tool, projector and budget probe. */
    public SpecState() {
    }

    RunContext run() {
        return run;
    }

    CountingExecutor executor() {
        return executor;
    }

    CountingProjector projector() {
        return projector;
    }

    /** Runs the later calls that prove a refused call reserved no budget. */
    CountingExecutor budgetProbe() {
        return budgetProbe;
    }

    /** The READY records this test's replaying boundaries answered a repeated call from. */
    List<CanonicalRecord.Ready> replayed() {
        return replayed;
    }
}
