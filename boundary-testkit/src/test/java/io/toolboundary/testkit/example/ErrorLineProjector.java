package io.toolboundary.testkit.example;

import io.toolboundary.application.Projector;
import io.toolboundary.application.ToolRequest;
import io.toolboundary.domain.Projection;

/**
 * A small log projector: counts the lines that contain "ERROR" and quotes the first one, masked and
 * cut to a fixed number of UTF-8 bytes. What a projector team would write, reduced to its bones.
 */
final class ErrorLineProjector implements Projector {

    private static final int QUOTE_BYTES = 600;

    @Override
    public Projection project(ToolRequest request, String rawResponse) {
        long errorLines = rawResponse.lines().filter(line -> line.contains("ERROR")).count();
        String scope = "log lines returned for " + request.tool().value();
        if (errorLines == 0) {
            return Projection.noEvidence("no ERROR lines", scope);
        }
        String first = rawResponse.lines().filter(line -> line.contains("ERROR")).findFirst().orElseThrow();
        String quote = Projector.cut(Projector.mask(first), QUOTE_BYTES);
        return Projection.evidenceFound(errorLines + " ERROR lines; first: " + quote, scope);
    }
}
