package io.toolboundary.application;

/**
 * The byte limits of one invocation, all counted in UTF-8. Going over a limit is an error, never a
 * truncation.
 *
 * @param argumentsBytes the tool arguments (JSON text)
 * @param rawResponseBytes the raw tool response
 * @param recordBytes the whole canonical record: ids, tool name, request, raw response, agent result
 * @param agentResultBytes the projected result's content and scope
 */
record Limits(long argumentsBytes, long rawResponseBytes, long recordBytes, long agentResultBytes) {

    /** 64 KiB. */
    static final long DEFAULT_ARGUMENTS_BYTES = 64L * 1024;
    /** 1 MiB. */
    static final long DEFAULT_RAW_RESPONSE_BYTES = 1024L * 1024;
    /** 1.25 MiB. */
    static final long DEFAULT_RECORD_BYTES = 1280L * 1024;
    /** 8 KiB. */
    static final long DEFAULT_AGENT_RESULT_BYTES = 8L * 1024;

    /**
     * Builds the limits, each in UTF-8 bytes.
     *
     * @param argumentsBytes the tool arguments (JSON text)
     * @param rawResponseBytes the raw tool response
     * @param recordBytes the whole canonical record
     * @param agentResultBytes the projected result's content and scope
     * @throws IllegalArgumentException when a limit is not positive
     */
    public Limits {
        requirePositive(argumentsBytes, "argumentsBytes");
        requirePositive(rawResponseBytes, "rawResponseBytes");
        requirePositive(recordBytes, "recordBytes");
        requirePositive(agentResultBytes, "agentResultBytes");
    }

    /** {@return the documented defaults: 64 KiB, 1 MiB, 1.25 MiB, 8 KiB} */
    public static Limits ofDefaults() {
        return new Limits(DEFAULT_ARGUMENTS_BYTES, DEFAULT_RAW_RESPONSE_BYTES, DEFAULT_RECORD_BYTES,
                DEFAULT_AGENT_RESULT_BYTES);
    }

    private static void requirePositive(long value, String field) {
        if (value <= 0) {
            throw new IllegalArgumentException(field + " must be positive, was " + value);
        }
    }
}
