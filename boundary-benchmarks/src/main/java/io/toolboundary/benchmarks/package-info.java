/** Measures what the boundary costs on both stores, against the Redis floor and a hand-rolled peer, and writes the report. */
package io.toolboundary.benchmarks;
