package io.toolboundary.springai.autoconfigure;

import io.toolboundary.application.BoundaryListener;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.ToolName;
import java.util.List;
import java.util.function.Consumer;

/** Tells every listener, in order; one listener's failure does not keep the others from hearing. */
final class CompositeListener implements BoundaryListener {

    private final List<BoundaryListener> listeners;

    CompositeListener(List<BoundaryListener> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    @Override
    public void onRejected(ToolCallEnvelope envelope, BoundaryError error) {
        each(listener -> listener.onRejected(envelope, error));
    }

    @Override
    public void onToolFailed(InvocationKey key, ToolName tool, Class<? extends Throwable> failure) {
        each(listener -> listener.onToolFailed(key, tool, failure));
    }

    @Override
    public void onProjectorFailed(InvocationKey key, ToolName tool, Class<? extends Throwable> failure) {
        each(listener -> listener.onProjectorFailed(key, tool, failure));
    }

    @Override
    public void onStoreFailed(InvocationKey key, BoundaryError error) {
        each(listener -> listener.onStoreFailed(key, error));
    }

    @Override
    public void onUnexpectedFailure(Class<? extends Throwable> failure) {
        each(listener -> listener.onUnexpectedFailure(failure));
    }

    @Override
    public void onCompleted(CanonicalRecord.Final record) {
        each(listener -> listener.onCompleted(record));
    }

    private void each(Consumer<BoundaryListener> event) {
        for (BoundaryListener listener : listeners) {
            try {
                event.accept(listener);
            } catch (RuntimeException ignored) {
                // A listener never changes an outcome, nor what the other listeners hear.
            }
        }
    }
}
