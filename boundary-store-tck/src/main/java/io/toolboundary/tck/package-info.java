/**
 * The suites a store adapter extends to prove that it keeps every promise of the store port: the store
 * contract, the requirements run through a boundary on the store, and the cases in which the agent must
 * never see raw data. An adapter supplies the store and a few hooks.
 */
package io.toolboundary.tck;
