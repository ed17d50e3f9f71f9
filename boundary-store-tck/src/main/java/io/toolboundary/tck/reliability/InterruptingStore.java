package io.toolboundary.tck.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.AttemptToken;
import io.toolboundary.application.CanonicalInvocationStore;
import io.toolboundary.application.InvocationStart;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.ToolExecutor;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.Outcome;
import io.toolboundary.testkit.CountingExecutor;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.tck.store.ForwardingStore;
import io.toolboundary.testkit.Fixtures;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The real store, with the caller's flag set as begin or complete starts. */
final class InterruptingStore extends ForwardingStore {
    private final InterruptPoint point;

    InterruptingStore(CanonicalInvocationStore store, InterruptPoint point) {
        super(store);
        this.point = point;
    }

    @Override
    public Either<BoundaryError, CanonicalRecord.Projecting> begin(InvocationStart start, Duration timeout) {
        if (point == InterruptPoint.DURING_BEGIN) {
            Thread.currentThread().interrupt();
        }
        return delegate().begin(start, timeout);
    }

    @Override
    public Either<BoundaryError, Outcome> complete(InvocationKey key, AttemptToken token, Outcome outcome,
            Duration timeout) {
        if (point == InterruptPoint.DURING_COMPLETE) {
            Thread.currentThread().interrupt();
        }
        return delegate().complete(key, token, outcome, timeout);
    }
}
