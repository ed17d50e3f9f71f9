package com.example.harness;

import io.toolboundary.application.Projector;
import io.toolboundary.application.ToolRequest;
import io.toolboundary.domain.Projection;

/** What the model may see of a log search: its ERROR lines, masked and bounded, or a scoped "none". */
public final class LogSearchProjector implements Projector {

    @Override
    public Projection project(ToolRequest request, String rawResponse) {
        String scope = "logs of service " + Projector.cut(request.json().path("service").asText(), 64);
        String errors = Projector.firstLines(
                Projector.mask(rawResponse).lines().filter(line -> line.contains(" ERROR ")), 2_048);
        return errors.isEmpty()
                ? Projection.noEvidence("no ERROR lines", scope)
                : Projection.evidenceFound(errors, scope);
    }
}
