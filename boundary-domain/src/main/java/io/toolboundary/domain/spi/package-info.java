/** For store authors: the decisions every store of canonical records makes, and why a store refuses. */
package io.toolboundary.domain.spi;
