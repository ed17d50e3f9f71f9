package io.toolboundary.tck.boundary;

import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;

import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.BoundaryListener;
import io.toolboundary.application.Projector;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryBuilder;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.ToolExecutor;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.RunOpening;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.tck.store.StoreFixture;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testkit.MutableClock;
import io.vavr.control.Either;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/** Everything a case needs: a run of its own, its envelope, the tool and projector it changes. */
final class LeakWorld {

    // The marked texts a case sends through the boundary, and the safe text a correct projector returns.
    static final String CREDENTIAL = "password=hunter2-MARKER";
    static final String TOOL_CALL_ID = "call_KEYMARKER-7";
    static final String ARGUMENTS = "{\"query\":\"ARGS-MARKER\",\"auth\":\"" + CREDENTIAL + "\"}";
    static final String RAW = "RAW-MARKER 10:00 ERROR checkout timeout; " + CREDENTIAL;
    static final String EXCEPTION_TEXT = "EXCEPTION-MARKER failed reading " + RAW;
    static final String SAFE_CONTENT = "1 timeout in checkout";
    static final String SAFE_SCOPE = "service checkout, last 15 minutes";

    /** Text that must never reach the agent, besides each case's own run id and key. */
    static final List<String> FORBIDDEN = List.of(
            "MARKER", "hunter2", "password=", ARGUMENTS, TOOL_CALL_ID,
            "Exception", "at io.", "\tat ", "Caused by", "java.", "io.toolboundary", "redis");

    private final StoreFixture fixture;
    final String runId = "run-KEYMARKER-" + UUID.randomUUID();
    final RunContext run;
    final MutableClock clock;
    final ToolCallEnvelope envelope = ToolCallEnvelope.of(runId, TOOL_CALL_ID, "log-search", ARGUMENTS);
    ToolExecutor executor = FakeTools.returning(RAW);
    Projector projector = FakeProjectors.evidenceFound(SAFE_CONTENT);

    LeakWorld(StoreFixture fixture) {
        this.fixture = fixture;
        this.clock = fixture.clock();
        RunOpening opening = new RunOpening(new RunId(runId), RunToken.random(), Duration.ofDays(365));
        this.run = Fixtures.runContext(runId).opened(fixture.store().openRun(opening, TIMEOUT)
                .getOrElseThrow(e -> new AssertionError("open run: " + e)));
    }

    ToolBoundaryBuilder builder(BoundaryListener listener) {
        return builderWith(listener, ToolBinding.readOnly("log-search", executor, projector));
    }

    /** A builder of a boundary on the store with {@code tool} alone. */
    ToolBoundaryBuilder builderWith(BoundaryListener listener, ToolBinding tool) {
        return ToolBoundary.builder().store(store()).accessPolicy(AccessPolicy.allowAll()).clock(clock)
                .listener(listener).tool(tool);
    }

    /** The case's call, made in {@code as}. */
    Either<BoundaryError, AgentResult> invokeIn(BoundaryListener listener, RunContext as) {
        return builder(listener).build().invoke(as, envelope);
    }

    Fixtures.EnvelopeBuilder envelopeBuilder() {
        return Fixtures.envelope().withRunId(envelope.runId()).withToolCallId(envelope.toolCallId())
                .withToolName(envelope.toolName()).withArguments(envelope.arguments());
    }

    Either<BoundaryError, AgentResult> invoke(BoundaryListener listener) {
        return builder(listener).build().invoke(run, envelope);
    }

    Either<BoundaryError, AgentResult> invoke(BoundaryListener listener, ToolCallEnvelope other) {
        return builder(listener).build().invoke(run, other);
    }

    Either<BoundaryError, AgentResult> invokeTwice(BoundaryListener listener, ToolCallEnvelope second) {
        ToolBoundary boundary = builder(listener).build();
        boundary.invoke(run, envelope);
        return boundary.invoke(run, second);
    }

    Either<BoundaryError, AgentResult> invokeOn(BoundaryListener listener, CanonicalInvocationStore other) {
        return builder(listener).store(other).build().invoke(run, envelope);
    }

    /** A request whose record is over the store's limit, with boundary limits that let it through. */
    Either<BoundaryError, AgentResult> invokeOverTheStoresRecordLimit(BoundaryListener listener) {
        // A request that fits its own limit but, with the record's ids and fingerprint, not the record limit.
        String arguments = "{\"query\":\"ARGS-MARKER " + "a".repeat(Math.toIntExact(fixture.maxRecordBytes() / 2)) + "\"}";
        long argumentsBytes = arguments.length();
        ToolBoundaryConfig tight = ToolBoundaryConfig.custom().argumentsLimitBytes(argumentsBytes)
                .rawResponseLimitBytes(argumentsBytes).recordLimitBytes(argumentsBytes).build();
        return builder(listener).config(tight).build()
                .invoke(run, ToolCallEnvelope.of(runId, TOOL_CALL_ID, "log-search", arguments));
    }

    CanonicalInvocationStore store() {
        return fixture.store();
    }

    InvocationKey key() {
        return InvocationKey.of(new RunId(runId), new ToolCallId(TOOL_CALL_ID));
    }

    void expire(InvocationKey key) {
        fixture.expire(key);
    }

    void passLease(InvocationKey key) {
        fixture.passLease(key);
    }
}
