package io.toolboundary.benchmarks;

import io.toolboundary.application.Projector;

/**
 * The texts every benchmark sends: tool arguments that are one JSON object of an exact UTF-8 size,
 * raw tool responses of an exact size (ASCII log lines, as log and search tools return), and the agent
 * result the fake projector returns. The same sizes give the same texts, so the boundary, the peer and
 * the floor all carry the same bytes.
 */
public final class Payloads {

    /** The tool every benchmark calls. */
    public static final String TOOL_NAME = "log-search";
    /** The size of the agent result content, in UTF-8 bytes. */
    public static final int AGENT_RESULT_BYTES = 256;
    /** The request size of the Redis benchmarks, the floor and the memory measurement, in UTF-8 bytes. */
    public static final int REDIS_REQUEST_BYTES = 1024;

    private static final String HEAD = "{\"service\":\"checkout\",\"window\":{\"minutes\":15},\"terms\":[";
    private static final String NOTE = "],\"note\":\"";
    private static final String TAIL = "\"}";
    private static final String LOG_LINE = "2026-01-01T10:00:00.000Z ERROR checkout-7f9c timeout after 3000 ms"
            + " calling payments order=000123 trace=4bf92f3577b34da6\n";

    private Payloads() {
    }

    /**
     * Tool arguments: one JSON object of exactly {@code utf8Bytes} bytes (at least 128), with nested fields, an
     * array of terms and a string, a realistic mix of tokens for the parser.
     */
    public static String request(int utf8Bytes) {
        if (utf8Bytes < 128) {
            throw new IllegalArgumentException("utf8Bytes must be at least 128, was " + utf8Bytes);
        }
        StringBuilder json = new StringBuilder(utf8Bytes).append(HEAD);
        int closing = NOTE.length() + TAIL.length();
        for (int term = 0; ; term++) {
            String next = (term == 0 ? "" : ",") + "\"term-" + String.format("%04d", term) + "\"";
            if (json.length() + next.length() + closing > utf8Bytes) {
                break;
            }
            json.append(next);
        }
        json.append(NOTE);
        int pad = utf8Bytes - json.length() - TAIL.length();
        json.append("n".repeat(Math.max(0, pad))).append(TAIL);
        String text = json.toString();
        if (Projector.utf8Length(text) != utf8Bytes) {
            throw new IllegalStateException("request has " + Projector.utf8Length(text) + " bytes, wanted " + utf8Bytes);
        }
        return text;
    }

    /**
     * A raw tool response of exactly {@code utf8Bytes} bytes: log lines, the last one cut to fit.
     *
     * @throws IllegalArgumentException when {@code utf8Bytes} is negative
     */
    public static String raw(int utf8Bytes) {
        if (utf8Bytes < 0) {
            throw new IllegalArgumentException("utf8Bytes must not be negative, was " + utf8Bytes);
        }
        StringBuilder text = new StringBuilder(utf8Bytes + LOG_LINE.length());
        while (text.length() < utf8Bytes) {
            text.append(LOG_LINE);
        }
        text.setLength(utf8Bytes);
        return text.toString();
    }

    /** The agent result content: {@value #AGENT_RESULT_BYTES} bytes of summary text. */
    public static String agentContent() {
        String line = "Found 412 timeouts calling payments from checkout between 10:00 and 10:15 UTC; ";
        StringBuilder text = new StringBuilder(AGENT_RESULT_BYTES);
        while (text.length() < AGENT_RESULT_BYTES) {
            text.append(line);
        }
        text.setLength(AGENT_RESULT_BYTES);
        return text.toString();
    }
}
