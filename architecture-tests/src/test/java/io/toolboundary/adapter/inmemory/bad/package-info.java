/** An in-memory adapter class that breaks the adapter rules on purpose. */
package io.toolboundary.adapter.inmemory.bad;
