package io.toolboundary.testkit.example;

import io.toolboundary.application.Projector;
import io.toolboundary.application.ToolRequest;
import io.toolboundary.domain.Projection;

/** Output of {@code mysql --batch}: a header line, then one tab-separated line per row. */
public final class MySqlRowsProjector implements Projector {
    @Override
    public Projection project(ToolRequest request, String rawResponse) {
        long rows = rawResponse.lines().skip(1).filter(line -> !line.isBlank()).count();
        String scope = "rows returned by " + request.tool().value();
        if (rows == 0) {
            return Projection.noEvidence("0 rows", scope);
        }
        String shown = Projector.firstLines(Projector.mask(rawResponse), 4_096);
        return Projection.evidenceFound(rows + " rows; header and first rows:\n" + shown, scope);
    }
}
