/** The requirement text, scenario by scenario, run through the boundary on the in-memory store. */
package io.toolboundary.adapter.inmemory.scenarios;
