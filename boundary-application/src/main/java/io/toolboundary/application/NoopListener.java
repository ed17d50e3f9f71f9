package io.toolboundary.application;

/** The listener that does nothing, {@link BoundaryListener#noop()}: one instance, which never throws. */
final class NoopListener implements BoundaryListener {

    static final NoopListener INSTANCE = new NoopListener();

    private NoopListener() {
    }
}
