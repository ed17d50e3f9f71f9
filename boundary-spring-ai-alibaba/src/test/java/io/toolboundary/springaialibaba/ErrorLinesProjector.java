package io.toolboundary.springaialibaba;

import io.toolboundary.application.Projector;
import io.toolboundary.application.ToolRequest;
import io.toolboundary.domain.Projection;

/** Shows the model the ERROR lines of a log text, credentials masked. */
final class ErrorLinesProjector implements Projector {

    @Override
    public Projection project(ToolRequest request, String rawResponse) {
        String errors = String.join("\n", rawResponse.lines().filter(line -> line.contains(" ERROR ")).toList());
        String scope = "logs of " + request.tool().value();
        if (errors.isEmpty()) {
            return Projection.noEvidence("no ERROR lines", scope);
        }
        return Projection.evidenceFound(Projector.firstLines(Projector.mask(errors), 2_048), scope);
    }
}
