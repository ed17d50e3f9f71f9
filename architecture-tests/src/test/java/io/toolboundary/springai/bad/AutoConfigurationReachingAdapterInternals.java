package io.toolboundary.springai.bad;

import io.toolboundary.adapter.inmemory.bad.internal.StoreInternals;

/** Breaks "integrations reach a store only through an adapter's public factory". */
public final class AutoConfigurationReachingAdapterInternals {

    /** A value read from an adapter's internals. */
    public int stripes() {
        return StoreInternals.stripes();
    }
}
