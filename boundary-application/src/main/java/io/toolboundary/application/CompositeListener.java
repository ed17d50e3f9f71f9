package io.toolboundary.application;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.ToolName;
import io.vavr.control.Either;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/** Forwards every event to each listener in order; one listener's failure never stops the next. */
final class CompositeListener implements BoundaryListener {

    private final List<BoundaryListener> listeners;

    CompositeListener(List<BoundaryListener> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    private void each(Consumer<BoundaryListener> event) {
        for (BoundaryListener listener : listeners) {
            try {
                event.accept(listener);
            } catch (Exception | LinkageError | AssertionError | StackOverflowError ignored) {
                // A listener never changes an outcome, nor what other listeners see.
            }
        }
    }

    @Override
    public void onStarted(RunContext run, ToolCallEnvelope envelope) {
        each(l -> l.onStarted(run, envelope));
    }

    @Override
    public void onFinished(RunContext run, ToolCallEnvelope envelope, Either<BoundaryError, AgentResult> outcome) {
        each(l -> l.onFinished(run, envelope, outcome));
    }

    @Override
    public void onRejected(ToolCallEnvelope envelope, BoundaryError error) {
        each(l -> l.onRejected(envelope, error));
    }

    @Override
    public void onToolFailed(InvocationKey key, ToolName tool, Class<? extends Throwable> failure) {
        each(l -> l.onToolFailed(key, tool, failure));
    }

    @Override
    public void onProjectorFailed(InvocationKey key, ToolName tool, Class<? extends Throwable> failure) {
        each(l -> l.onProjectorFailed(key, tool, failure));
    }

    @Override
    public void onStoreFailed(InvocationKey key, BoundaryError error) {
        each(l -> l.onStoreFailed(key, error));
    }

    @Override
    public void onUnfinished(InvocationKey key, AttemptToken token) {
        each(l -> l.onUnfinished(key, token));
    }

    @Override
    public void onUnexpectedFailure(Class<? extends Throwable> failure) {
        each(l -> l.onUnexpectedFailure(failure));
    }

    @Override
    public void onCompleted(CanonicalRecord.Final record) {
        each(l -> l.onCompleted(record));
    }

    @Override
    public void onReplayed(CanonicalRecord.Ready record) {
        each(l -> l.onReplayed(record));
    }

    @Override
    public void onExecuted(InvocationKey key, ToolName tool, Duration elapsed) {
        each(l -> l.onExecuted(key, tool, elapsed));
    }

    @Override
    public void onProjected(InvocationKey key, ToolName tool, Duration elapsed) {
        each(l -> l.onProjected(key, tool, elapsed));
    }

    @Override
    public void onStoreTime(InvocationKey key, Duration elapsed) {
        each(l -> l.onStoreTime(key, elapsed));
    }
}
