package io.toolboundary.springai;

import io.toolboundary.application.Projector;
import io.toolboundary.application.ToolRequest;
import io.toolboundary.domain.Projection;
import java.util.stream.Collectors;

/** The README's quick-start projector: keeps the lines containing ERROR, nothing else. */
public final class ErrorLinesProjector implements Projector {

    /** The scope every projection states. */
    public static final String SCOPE = "service logs, lines with ERROR";

    @Override
    public Projection project(ToolRequest request, String rawResponse) {
        String errors = rawResponse.lines().filter(line -> line.contains("ERROR")).collect(Collectors.joining("\n"));
        return errors.isEmpty() ? Projection.noEvidence("no ERROR line", SCOPE) : Projection.evidenceFound(errors, SCOPE);
    }
}
