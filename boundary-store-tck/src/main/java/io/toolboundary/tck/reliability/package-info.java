/** Reliability suites: hostile input through the boundary and a model-based check of a store, with counted results. */
package io.toolboundary.tck.reliability;
