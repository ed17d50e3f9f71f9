/**
 * Linearizability of recorded histories: {@link io.toolboundary.tck.reliability.history.Operation operations}
 * with their invoke and return instants, a {@link io.toolboundary.tck.reliability.history.Model sequential
 * model}, the checker ({@link io.toolboundary.tck.reliability.history.Linearizability}), the canonical record's
 * model ({@link io.toolboundary.tck.reliability.history.RecordModel}) and a recorder around a store
 * ({@link io.toolboundary.tck.reliability.history.RecordingStore}).
 */
package io.toolboundary.tck.reliability.history;
