/**
 * The arguments' JSON check and RFC 8785 (JSON Canonicalization Scheme) fingerprint, in one pass:
 * {@link io.toolboundary.application.json.JsonArguments} is its only entry; nothing else here is used
 * from outside. Not part of the public API.
 */
package io.toolboundary.application.json;
