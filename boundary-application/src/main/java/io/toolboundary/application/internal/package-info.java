/** Implementation details of the application layer; not part of the public API. */
package io.toolboundary.application.internal;
