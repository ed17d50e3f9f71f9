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

/** Keeps what the harness-side listener receives. */
final class RecordingListener implements BoundaryListener {
    final List<BoundaryError> errors = new ArrayList<>();
    final List<Class<? extends Throwable>> failures = new ArrayList<>();

    @Override
    public void onRejected(ToolCallEnvelope envelope, BoundaryError error) {
        errors.add(error);
    }

    @Override
    public void onToolFailed(InvocationKey key, ToolName tool, Class<? extends Throwable> failure) {
        failures.add(failure);
    }

    @Override
    public void onProjectorFailed(InvocationKey key, ToolName tool, Class<? extends Throwable> failure) {
        failures.add(failure);
    }

    @Override
    public void onStoreFailed(InvocationKey key, BoundaryError error) {
        errors.add(error);
    }

    @Override
    public void onUnexpectedFailure(Class<? extends Throwable> failure) {
        failures.add(failure);
    }

    @Override
    public void onCompleted(CanonicalRecord.Final record) {
        record.errorCode().forEach(code -> errors.add(BoundaryError.of(code)));
    }
}
