/**
 * The boundary's domain: identifiers, the canonical record and its lifecycle, evidence and error codes
 * ({@code io.toolboundary.domain}), and the decisions every store makes ({@code io.toolboundary.domain.spi}).
 */
module io.toolboundary.domain {
    requires transitive io.vavr;

    exports io.toolboundary.domain;
    exports io.toolboundary.domain.spi;
    exports io.toolboundary.domain.internal to io.toolboundary.application;
}
