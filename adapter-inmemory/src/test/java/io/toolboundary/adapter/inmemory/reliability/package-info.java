/** Reliability runs on the in-memory store: hostile input through the boundary and the store against a reference model. */
package io.toolboundary.adapter.inmemory.reliability;
