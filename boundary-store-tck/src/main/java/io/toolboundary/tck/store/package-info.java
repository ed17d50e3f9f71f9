/**
 * The store contracts: JUnit 5 test interfaces over {@link io.toolboundary.tck.store.StoreFixture} that
 * a store adapter's test class implements to prove that its store keeps every promise of the store port.
 */
package io.toolboundary.tck.store;
