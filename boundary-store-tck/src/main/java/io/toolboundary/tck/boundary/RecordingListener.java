package io.toolboundary.tck.boundary;

import io.toolboundary.application.BoundaryListener;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.ToolName;
import java.util.ArrayList;
import java.util.List;

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
