/** The embedded default store: canonical records in memory, expiring by an injected clock. */
package io.toolboundary.adapter.inmemory;
