/** UTF-8 measurement shared by the domain and the application; not part of the public API. */
package io.toolboundary.domain.internal;
