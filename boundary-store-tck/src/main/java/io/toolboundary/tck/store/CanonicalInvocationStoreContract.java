package io.toolboundary.tck.store;

import io.toolboundary.application.CanonicalInvocationStore;
import io.toolboundary.domain.InvocationKey;

/**
 * The promises every {@link CanonicalInvocationStore} keeps, as one suite: a convenience that gathers
 * the store contracts, still one interface level over {@link StoreFixture}. A store adapter's test runs
 * all of it by implementing this interface and the hooks the contracts call: {@link #store()},
 * {@link #remainingTtl(InvocationKey)}, {@link #expire(InvocationKey)}, {@link #expireRun},
 * {@link #passLease(InvocationKey)} and {@link #maxRecordBytes()}.
 *
 * <p>Every test works in a run of its own ({@link #openedRun()}), so a test class may hand all tests
 * one shared store on one shared server. Records carry the timestamps the test chooses; the store's own
 * clock is never assumed to move, except through {@link #expire(InvocationKey)} and
 * {@link #passLease(InvocationKey)}. The contracts are explained in docs/store-tck.md.
 */
public interface CanonicalInvocationStoreContract extends StoreRunsContract, StoreCreatingContract,
        StoreCompletingContract, StoreAbandoningContract, StoreRacesContract {
}
