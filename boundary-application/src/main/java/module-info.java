/**
 * The boundary: {@code io.toolboundary.application} is what a harness and a projector team use;
 * {@code io.toolboundary.application.spi} is what a store adapter implements.
 */
module io.toolboundary.application {
    requires transitive io.toolboundary.domain;
    requires transitive com.fasterxml.jackson.databind;

    exports io.toolboundary.application;
    exports io.toolboundary.application.spi;
}
