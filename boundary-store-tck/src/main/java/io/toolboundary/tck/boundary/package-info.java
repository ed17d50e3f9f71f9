/**
 * The suites run through a boundary on the store under test: every Requirement and Scenario of the
 * canonical tool invocation store, one interface per behaviour group, and the cases in which the agent
 * must never see raw data ({@link io.toolboundary.tck.boundary.AgentNeverSeesRawDataContract}). Each
 * is a test interface over {@link io.toolboundary.tck.store.StoreFixture}.
 */
package io.toolboundary.tck.boundary;
