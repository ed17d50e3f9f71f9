package io.toolboundary.tck.boundary;

import static io.toolboundary.tck.boundary.LeakCases.ARGUMENTS;
import static io.toolboundary.tck.boundary.LeakCases.EXCEPTION_TEXT;
import static io.toolboundary.tck.boundary.LeakCases.RAW;
import static io.toolboundary.tck.boundary.LeakCases.SAFE_CONTENT;
import static io.toolboundary.tck.boundary.LeakCases.SAFE_SCOPE;
import static io.toolboundary.tck.boundary.LeakCases.TOOL_CALL_ID;
import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.MutableClock;
import static org.assertj.core.api.Assertions.assertThat;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.BoundaryListener;
import io.toolboundary.application.CanonicalInvocationStore;
import io.toolboundary.application.Projector;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.RunToken;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryBuilder;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.ToolExecutor;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.ToolName;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.lang.reflect.Method;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import io.toolboundary.tck.store.StoreFixture;

/** Everything a case needs: a run of its own, its envelope, the tool and projector it changes. */
final class LeakWorld {
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
        this.run = Fixtures.runContext(runId).opened(fixture.store().openRun(new io.toolboundary.domain.RunId(runId),
                RunToken.random(), Duration.ofDays(365)).getOrElseThrow(e -> new AssertionError("open run: " + e)));
    }

    ToolBoundaryBuilder builder(BoundaryListener listener) {
        return ToolBoundary.builder().store(store()).accessPolicy(AccessPolicy.allowAll()).clock(clock)
                .listener(listener).tool(ToolBinding.readOnly("log-search", executor, projector));
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
        return InvocationKey.of(new io.toolboundary.domain.RunId(runId), new io.toolboundary.domain.ToolCallId(TOOL_CALL_ID));
    }

    void expire(InvocationKey key) {
        fixture.expire(key);
    }

    void passLease(InvocationKey key) {
        fixture.passLease(key);
    }
}
