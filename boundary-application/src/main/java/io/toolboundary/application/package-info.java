/**
 * The tool boundary use case, {@link io.toolboundary.application.ToolBoundary}, the ports it drives
 * (store, executor, projector, access policy, listener) and its configuration.
 *
 * <p>Everything an agent harness or a projector team needs to import lives in this package, with the
 * domain types it speaks in ({@code io.toolboundary.domain.Projection}, for one). Projector authors
 * start with {@link io.toolboundary.application.Projector} and {@link io.toolboundary.application.ProjectorText}.
 */
package io.toolboundary.application;
