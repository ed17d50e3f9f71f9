package io.toolboundary.adapter.inmemory.bad.internal;

/** Public for the compiler, internal by its package. */
public final class StoreInternals {

    private StoreInternals() {
    }

    /** A detail of the store's layout. */
    public static int stripes() {
        return 64;
    }
}
