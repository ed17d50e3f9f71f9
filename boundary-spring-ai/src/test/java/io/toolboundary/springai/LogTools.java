package io.toolboundary.springai;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;

/** {@code @Tool} methods as an application writes them: a log search returning text and a stats tool returning a map. */
public class LogTools {

    /** A multi-line log excerpt with a credential on an INFO line, quotes, a backslash and non-ASCII text. */
    public static final String LOG_OUTPUT = "2026-01-01T10:00:01Z INFO  login ok user=alice password=hunter2\n"
            + "2026-01-01T10:00:02Z ERROR checkout timed out after 3000 ms (\"payment\" \\ gateway)\n"
            + "2026-01-01T10:00:03Z DEBUG cache größe=12\n";

    private final AtomicInteger calls = new AtomicInteger();

    @Tool(name = "log-search", description = "Searches the service logs")
    public String searchLogs(@ToolParam(description = "what to look for") String query) {
        calls.incrementAndGet();
        return LOG_OUTPUT;
    }

    @Tool(name = "log-stats", description = "Counts log lines by level")
    public Map<String, Integer> stats(@ToolParam(description = "the service") String service) {
        calls.incrementAndGet();
        Map<String, Integer> counts = new LinkedHashMap<>();
        counts.put("ERROR", 1);
        counts.put("INFO", 1);
        return counts;
    }

    /** How many times any tool method ran. */
    public int calls() {
        return calls.get();
    }
}
