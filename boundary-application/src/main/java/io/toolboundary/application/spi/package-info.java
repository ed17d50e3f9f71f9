/**
 * For store authors: the store port, its typed failures, and what a begin and a run opening carry. The
 * store TCK ({@code boundary-store-tck}) checks an implementation against every promise here.
 */
package io.toolboundary.application.spi;
