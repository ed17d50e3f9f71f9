/** An adapter's internals, which no integration may reach. */
package io.toolboundary.adapter.inmemory.bad.internal;
