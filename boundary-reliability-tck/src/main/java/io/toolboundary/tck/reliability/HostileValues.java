package io.toolboundary.tck.reliability;

/**
 * The values the hostile-input and model suites share: the system properties that set their tries and seed, the payload
 * limit, the markers that must never reach the agent, and the harness's tools and texts.
 */
public final class HostileValues {

    /** The system property that sets the number of tries per test. */
    public static final String TRIES_PROPERTY = "toolboundary.fuzz.tries";

    /** The system property that sets the seed of every run (each test adds its own offset). */
    public static final String SEED_PROPERTY = "toolboundary.fuzz.seed";

    /** Tries per test when {@value #TRIES_PROPERTY} is not set. */
    public static final int DEFAULT_TRIES = 1000;

    /** The byte limit of the payload test: request, raw response and agent result. */
    public static final int PAYLOAD_LIMIT_BYTES = 1024;

    /** Carried by every raw response; must never reach the agent. */
    public static final String RAW_MARKER = "RAW-7c1e9a";

    /** Carried by every valid request; must never reach the agent in an error. */
    public static final String REQUEST_MARKER = "REQ-4b8d2f";

    /** Carried by every exception a tool or projector throws; must never reach the agent. */
    public static final String EXCEPTION_MARKER = "EXC-93f0d1";

    /** A credential fragment carried by raw responses and exception texts. */
    public static final String CREDENTIAL_MARKER = "password=";

    /** The read-only tool the harness registers. */
    static final String TOOL = "fuzz_tool";
    /** A writable tool the harness registers, which preflight must refuse. */
    static final String WRITER = "fuzz_writer";
    /** The harness tool's raw response, carrying {@link #RAW_MARKER} and a credential. */
    static final String RAW = "{\"hits\":1,\"" + RAW_MARKER + "\":\"" + CREDENTIAL_MARKER + "hunter2\"}";
    /** The harness's valid request, carrying {@link #REQUEST_MARKER}. */
    static final String ARGUMENTS = "{\"q\":\"" + REQUEST_MARKER + "\"}";

    private HostileValues() {
    }
}
