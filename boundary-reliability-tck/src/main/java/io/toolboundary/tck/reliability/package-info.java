/**
 * Reliability suites, as test interfaces over {@link io.toolboundary.tck.store.StoreFixture}: hostile input
 * through the boundary, a model-based check of a store and interrupts at every point of a call, with
 * counted results.
 */
package io.toolboundary.tck.reliability;
