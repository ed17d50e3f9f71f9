/**
 * The suites run through a boundary on the store under test: every Requirement and Scenario of the
 * canonical tool invocation store, one interface per behaviour group, and the cases in which the agent
 * must never see raw data ({@link io.toolboundary.tck.boundary.AgentNeverSeesRawDataContract}). Each
 * is a test interface over {@link io.toolboundary.tck.store.StoreFixture}: a test class runs it by implementing it
 * with {@code specState()}; docs/store-tck.md lists the hooks each calls.
 */
package io.toolboundary.tck.boundary;
