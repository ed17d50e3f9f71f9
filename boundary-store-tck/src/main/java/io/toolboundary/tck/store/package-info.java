/**
 * The store contracts: JUnit 5 test interfaces a store adapter's test class implements to prove that its
 * store keeps every promise of the store port. The test class implements {@link
 * io.toolboundary.tck.store.StoreFixture} (the store and the hooks the contracts call) and the contracts
 * it runs, or {@link io.toolboundary.tck.store.CanonicalInvocationStoreContract} for all of them;
 * {@link io.toolboundary.tck.store.StoreRecordFixtures} builds records the way the contracts do.
 */
package io.toolboundary.tck.store;
