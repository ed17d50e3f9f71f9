/**
 * The rules of a tool invocation: safe identifiers, the canonical record and its lifecycle,
 * evidence semantics, UTF-8 byte limits and the catalogue of safe error codes.
 *
 * <p>Everything here is an immutable value. Nothing performs I/O, reads a clock or parses JSON;
 * every fallible operation returns an {@link io.vavr.control.Either} whose left side is a
 * {@link io.toolboundary.domain.BoundaryError}.
 */
package io.toolboundary.domain;
