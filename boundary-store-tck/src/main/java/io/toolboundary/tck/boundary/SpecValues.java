package io.toolboundary.tck.boundary;

import io.toolboundary.application.ToolBoundaryConfig;
import java.time.Duration;
import java.time.Instant;

/** The values the spec suites work with: where their clock starts, the TTL, the tool's raw response and result. */
public final class SpecValues {

    /** Where the suite's clock stands when a test begins. */
    public static final Instant START = Instant.parse("2030-01-01T00:00:00Z");

    /** The time to live the boundaries of the suite give each record: the boundary's default. */
    public static final Duration TTL = ToolBoundaryConfig.DEFAULT_RECORD_TTL;

    static final String RAW = "2030-01-01T00:00:01Z ERROR checkout: timeout after 30000 ms";
    static final String RESULT = "1 timeout in checkout";
    /** How far the store's own time must move before a TTL reading that a renewal must not exceed. */
    static final Duration STORE_TIME_STEP = Duration.ofMillis(5);
    /** The longest wait for the store's own time to move that far. */
    static final Duration STORE_TIME_PATIENCE = Duration.ofSeconds(10);
    /** The raw response limit of the case that exceeds it by one byte. */
    static final int RAW_LIMIT = 1024;
    /** The raw response limit of the second tool of the reusable-boundary cases. */
    static final int SQL_RAW_LIMIT = 4096;

    private SpecValues() {
    }
}
