/**
 * The tool boundary use case, {@link io.toolboundary.application.ToolBoundary}, the ports it drives
 * (store, executor, projector, access policy, listener) and its configuration.
 *
 * <p>Everything an agent harness or a projector team needs to import lives in this package.
 */
package io.toolboundary.application;
