/**
 * The suites run through a boundary on the store under test: every requirement of the canonical tool
 * invocation store ({@link io.toolboundary.tck.boundary.ToolBoundarySpecContract}) and the cases in
 * which the agent must never see raw data ({@link io.toolboundary.tck.boundary.AgentNeverSeesRawDataContract}).
 * Both are test interfaces over {@link io.toolboundary.tck.store.StoreFixture}.
 */
package io.toolboundary.tck.boundary;
