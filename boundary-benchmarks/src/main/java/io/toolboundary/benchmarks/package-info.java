/** Measures what the boundary costs on both stores, against its floor and a hand-rolled peer. */
package io.toolboundary.benchmarks;
