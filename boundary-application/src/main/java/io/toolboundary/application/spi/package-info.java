/**
 * For store authors: the store port, its typed failures, what a begin and a run opening carry, and the
 * outbox of final records a store keeps for export. The store TCK ({@code boundary-store-tck}) checks an
 * implementation against every promise here.
 */
package io.toolboundary.application.spi;
