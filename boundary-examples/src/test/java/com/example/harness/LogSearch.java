package com.example.harness;

import io.toolboundary.application.ToolRequest;
import java.util.stream.Collectors;

/** The tool: the log lines of one service. Here a few fixed lines; in a harness, the log store. */
public final class LogSearch {

    private static final String LOGS = """
            2026-12-07T10:00:01Z payments ERROR timeout calling bank-gw password=hunter2
            2026-12-07T10:00:02Z payments INFO retry 1 of 3
            2026-12-07T10:00:03Z checkout INFO order 1842 placed
            """;

    private LogSearch() {
    }

    /** Runs the search; its whole answer is kept in the record, for the harness only. */
    public static String run(ToolRequest request) {
        String service = request.json().path("service").asText();
        return LOGS.lines().filter(line -> line.contains(" " + service + " ")).collect(Collectors.joining("\n"));
    }
}
