package io.toolboundary.tck.reliability;

/**
 * The values the hostile-input and model suites share: the system properties that set their tries and
 * seed, the payload limit, and the markers that must never reach the agent.
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

    private HostileValues() {
    }
}
