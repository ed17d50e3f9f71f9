package io.toolboundary.testkit;

import io.toolboundary.application.Projector;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolRequest;
import io.toolboundary.domain.AgentResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link Projector} must keep, as a JUnit 5 suite: a projector team extends it and supplies
 * the projector, a raw response with evidence, one without, and one larger than the agent limit.
 *
 * <p>It proves that every sample projects within the agent limit and is labelled correctly (NO_EVIDENCE with
 * a non-blank scope), that a large raw response is not copied through, and, with the team's
 * {@link #rawWithEvidence()} carrying extra text ({@link #rawWithEvidenceCarrying(String)}): runs of 2-, 3-
 * and 4-byte characters still project as well-formed Unicode without a new U+FFFD; a request of
 * {@value #LARGE_REQUEST_BYTES} bytes leaves the scope within {@link #maxScopeBytes()} and is not echoed; no
 * credential reaches the result unless {@link #allowsCredentialsInContent()}. Each check is also a public
 * static method, usable outside JUnit.
 *
 * <pre>{@code
 * class LogProjectorTest extends ProjectorContract {
 *     protected Projector projector() { return new LogProjector(); }
 *     protected String rawWithEvidence() { return "10:01 ERROR timeout calling payments"; }
 *     protected String rawWithoutEvidence() { return ""; }
 *     protected String largeRaw() { return "10:01 INFO ok\n".repeat(10_000); }
 * }
 * }</pre>
 */
public abstract class ProjectorContract {

    /** The size of the arguments of the large request, in UTF-8 bytes: 60 KiB, under the 64 KiB request limit. */
    public static final int LARGE_REQUEST_BYTES = 60 * 1024;

    /** The default bound on the scope of a projection made for the large request, in UTF-8 bytes. */
    public static final long DEFAULT_MAX_SCOPE_BYTES = 512;

    /** The run of characters of the request's arguments that counts as an echo when found in the projection. */
    public static final int ECHO_WINDOW_CHARS = ProjectorChecks.ECHO_WINDOW_CHARS;

    /** Runs of 2-, 3- and 4-byte characters (and one of all widths) put on raw lines by the non-ASCII check. */
    public static final List<String> NON_ASCII_CHARACTERS = ProjectorSamples.NON_ASCII_CHARACTERS;

    /**
     * Lines carrying a credential, each paired with the credential it carries, as {@code {line, secret}}:
     * what the credential check puts on raw lines and then looks for in the projection.
     */
    public static final List<List<String>> CREDENTIAL_LINES = ProjectorSamples.CREDENTIAL_LINES;

    /** {@return the projector under test; may be a new instance per call} */
    protected abstract Projector projector();

    /** {@return a raw tool response that the projector must label EVIDENCE_FOUND} */
    protected abstract String rawWithEvidence();

    /** {@return a raw tool response that the projector must label NO_EVIDENCE, with a non-blank scope} */
    protected abstract String rawWithoutEvidence();

    /**
     * {@return a raw response of more than {@link #agentLimitBytes()} UTF-8 bytes, as the tool can really produce it}
     */
    protected abstract String largeRaw();

    /**
     * {@return the agent limit on content and scope together, in UTF-8 bytes; by default
     * {@link ToolBoundaryConfig#DEFAULT_AGENT_RESULT_BYTES}}
     */
    protected long agentLimitBytes() {
        return ToolBoundaryConfig.DEFAULT_AGENT_RESULT_BYTES;
    }

    /**
     * {@return the request passed with every sample; by default one for the tool {@code projector-under-test} with
     * {@link Fixtures#DEFAULT_ARGUMENTS} and a fresh key}
     */
    protected ToolRequest request() {
        return sampleRequest("projector-under-test", Fixtures.DEFAULT_ARGUMENTS);
    }

    /**
     * {@link #rawWithEvidence()} carrying {@code text} where the projector would quote it: by default
     * {@code " " + text} at the end of every non-blank line. Override it when the tool's raw format
     * cannot take appended text, for example to put {@code text} into a JSON string field.
     *
     * @param text the text to carry: a long non-ASCII run, or a line with a credential
     * @return a raw response with evidence that carries {@code text}
     */
    protected String rawWithEvidenceCarrying(String text) {
        StringBuilder raw = new StringBuilder();
        rawWithEvidence().lines().forEach(line -> raw.append(line).append(line.isBlank() ? "" : " " + text).append('\n'));
        return raw.toString();
    }

    /**
     * The arguments of the large request, built around {@code filler}: by default
     * {@code {"query":"<filler>"}}, exactly {@link #LARGE_REQUEST_BYTES} bytes. Override it to put the
     * filler where the tool's own arguments would have it; keep the result under the request limit.
     *
     * @param filler the text to carry, ASCII letters and digits
     * @return one JSON object
     */
    protected String largeRequestArguments(String filler) {
        return "{\"query\":\"" + filler + "\"}";
    }

    /**
     * {@return the most UTF-8 bytes the scope may take for the large request; by default
     * {@value #DEFAULT_MAX_SCOPE_BYTES}}
     */
    protected long maxScopeBytes() {
        return DEFAULT_MAX_SCOPE_BYTES;
    }

    /**
     * False by default: a credential in a raw line must not reach the content or scope. A projector
     * whose very purpose is to show one (a secrets tool behind its own access policy) returns true; the
     * credential lines are then still projected, and must still stay within the agent limit.
     *
     * @return true to let credentials reach the content
     */
    protected boolean allowsCredentialsInContent() {
        return false;
    }

    @Test
    void largeRawIsLargerThanTheAgentLimit() {
        checkLargeRawIsLarge(largeRaw(), agentLimitBytes());
    }

    @Test
    void staysWithinTheAgentLimitForRawWithEvidence() {
        checkWithinLimit(projector(), request(), rawWithEvidence(), agentLimitBytes());
    }

    @Test
    void staysWithinTheAgentLimitForRawWithoutEvidence() {
        checkWithinLimit(projector(), request(), rawWithoutEvidence(), agentLimitBytes());
    }

    @Test
    void staysWithinTheAgentLimitForLargeRaw() {
        checkWithinLimit(projector(), request(), largeRaw(), agentLimitBytes());
    }

    @Test
    void labelsEvidenceAsFound() {
        checkEvidenceFound(projector(), request(), rawWithEvidence(), agentLimitBytes());
    }

    @Test
    void labelsAbsenceAsNoEvidenceWithScope() {
        checkNoEvidenceWithScope(projector(), request(), rawWithoutEvidence(), agentLimitBytes());
    }

    @Test
    void neverCopiesTheLargeRawThrough() {
        checkDoesNotCopyRawThrough(projector(), request(), largeRaw(), agentLimitBytes());
    }

    @Test
    void staysWithinTheAgentLimitForNonAsciiLargeRaw() {
        for (String characters : NON_ASCII_CHARACTERS) {
            for (int alignment = 0; alignment < 4; alignment++) {
                String raw = rawWithEvidenceCarrying(nonAsciiRun(characters, alignment, agentLimitBytes()));
                checkNonAsciiRaw(projector(), request(), raw, agentLimitBytes());
            }
        }
    }

    @Test
    void keepsTheScopeBoundedAndDoesNotEchoALargeRequest() {
        String filler = echoFiller(LARGE_REQUEST_BYTES - "{\"query\":\"\"}".length());
        String arguments = largeRequestArguments(filler);
        ToolRequest large = sampleRequest(request().tool().value(), arguments);
        for (String raw : List.of(rawWithEvidence(), rawWithoutEvidence(), largeRaw())) {
            checkLargeRequest(projector(), large, raw, agentLimitBytes(), maxScopeBytes());
        }
    }

    @Test
    void keepsCredentialsOutOfTheContent() {
        for (List<String> credential : CREDENTIAL_LINES) {
            String raw = rawWithEvidenceCarrying(credential.get(0));
            if (allowsCredentialsInContent()) {
                // A projector meant to show them must still stay within the limit on such lines.
                checkWithinLimit(projector(), request(), raw, agentLimitBytes());
            } else {
                checkNoCredential(projector(), request(), raw, credential.get(1), agentLimitBytes());
            }
        }
    }

    /**
     * A run of {@code characters}, repeated to about one and a half times {@code limitBytes} UTF-8 bytes,
     * after {@code alignment} ASCII letters so that a cut by chars or bytes lands on every position.
     *
     * @param characters the characters to repeat
     * @param alignment ASCII letters before the run
     * @param limitBytes the agent limit
     * @return the run
     */
    public static String nonAsciiRun(String characters, int alignment, long limitBytes) {
        return ProjectorSamples.nonAsciiRun(characters, alignment, limitBytes);
    }

    /**
     * Letters and digits from a fixed seed, {@code chars} long, with no repeated run of
     * {@value #ECHO_WINDOW_CHARS} characters in practice: the text the large request carries.
     *
     * @param chars the length
     * @return the filler
     */
    public static String echoFiller(int chars) {
        return ProjectorSamples.echoFiller(chars);
    }

    /**
     * Asserts that the projection of a raw response carrying non-ASCII text is accepted within the limit
     * (so it is well-formed Unicode and within the bytes), has no U+FFFD that {@code raw} did not have,
     * and does not copy {@code raw} through.
     *
     * @param projector the projector to check
     * @param request the request passed to the projector with {@code raw}
     * @param raw a raw response carrying non-ASCII text, for example from {@link #nonAsciiRun}
     * @param limitBytes the agent limit, in UTF-8 bytes, on content and scope together
     * @return the accepted result
     * @throws AssertionError when it does not
     */
    public static AgentResult checkNonAsciiRaw(Projector projector, ToolRequest request, String raw, long limitBytes) {
        return ProjectorChecks.checkNonAsciiRaw(projector, request, raw, limitBytes);
    }

    /**
     * Asserts that the projection made for {@code largeRequest} is accepted within the limit, has a
     * scope of at most {@code maxScopeBytes} UTF-8 bytes, and echoes no {@value #ECHO_WINDOW_CHARS}
     * characters in a row of the request's arguments in its content or scope.
     *
     * @param projector the projector to check
     * @param largeRequest the request with large arguments, whose arguments must not be echoed
     * @param raw the raw response passed to the projector with {@code largeRequest}
     * @param limitBytes the agent limit, in UTF-8 bytes, on content and scope together
     * @param maxScopeBytes the bound on the scope, in UTF-8 bytes
     * @return the accepted result
     * @throws AssertionError when it does not
     */
    public static AgentResult checkLargeRequest(Projector projector, ToolRequest largeRequest, String raw,
            long limitBytes, long maxScopeBytes) {
        return ProjectorChecks.checkLargeRequest(projector, largeRequest, raw, limitBytes, maxScopeBytes);
    }

    /**
     * Asserts that the projection of a raw response carrying {@code secret} is accepted within the limit
     * and has {@code secret} neither in its content nor in its scope.
     *
     * @param projector the projector to check
     * @param request the request passed to the projector with {@code raw}
     * @param raw a raw response with a line carrying {@code secret}, for example one of
     *     {@link #CREDENTIAL_LINES}
     * @param secret the credential that must not reach the content or scope
     * @param limitBytes the agent limit, in UTF-8 bytes, on content and scope together
     * @throws AssertionError when it does
     */
    public static void checkNoCredential(Projector projector, ToolRequest request, String raw, String secret,
            long limitBytes) {
        ProjectorChecks.checkNoCredential(projector, request, raw, secret, limitBytes);
    }

    /**
     * {@return a request for projector checks under a fresh run id and tool call id, with the given tool and
     * arguments}
     *
     * @param toolName the name of the tool the request calls
     * @param arguments the arguments of the request, as the tool takes them (JSON for most tools)
     */
    public static ToolRequest sampleRequest(String toolName, String arguments) {
        return ProjectorSamples.sampleRequest(toolName, arguments);
    }

    /**
     * Asserts that {@code largeRaw} is over {@code limitBytes}, so that the other checks on it mean
     * something.
     *
     * @param largeRaw the raw response meant to be over the limit
     * @param limitBytes the agent limit, in UTF-8 bytes
     * @throws AssertionError when it is not
     */
    public static void checkLargeRawIsLarge(String largeRaw, long limitBytes) {
        ProjectorChecks.checkLargeRawIsLarge(largeRaw, limitBytes);
    }

    /**
     * Asserts that the projector returns, without throwing, a projection the boundary accepts within
     * {@code limitBytes}: a valid evidence status, a scope for NO_EVIDENCE, Unicode text, content and
     * scope together within the limit.
     *
     * @param projector the projector to check
     * @param request the request passed to the projector with {@code raw}
     * @param raw the raw response to project
     * @param limitBytes the agent limit, in UTF-8 bytes, on content and scope together
     * @return the accepted result
     * @throws AssertionError when it does not
     */
    public static AgentResult checkWithinLimit(Projector projector, ToolRequest request, String raw, long limitBytes) {
        return ProjectorChecks.checkWithinLimit(projector, request, raw, limitBytes);
    }

    /**
     * Asserts that the projector labels {@code raw} EVIDENCE_FOUND within the limit.
     *
     * @param projector the projector to check
     * @param request the request passed to the projector with {@code raw}
     * @param raw a raw response in which the projector must find evidence
     * @param limitBytes the agent limit, in UTF-8 bytes, on content and scope together
     * @throws AssertionError when it does not
     */
    public static void checkEvidenceFound(Projector projector, ToolRequest request, String raw, long limitBytes) {
        ProjectorChecks.checkEvidenceFound(projector, request, raw, limitBytes);
    }

    /**
     * Asserts that the projector labels {@code raw} NO_EVIDENCE within the limit, with a non-blank
     * scope saying what was searched.
     *
     * @param projector the projector to check
     * @param request the request passed to the projector with {@code raw}
     * @param raw a raw response in which the projector must find nothing
     * @param limitBytes the agent limit, in UTF-8 bytes, on content and scope together
     * @throws AssertionError when it does not
     */
    public static void checkNoEvidenceWithScope(Projector projector, ToolRequest request, String raw,
            long limitBytes) {
        ProjectorChecks.checkNoEvidenceWithScope(projector, request, raw, limitBytes);
    }

    /**
     * Asserts that the projection of a raw response over the limit neither throws nor carries the
     * whole raw response in its content or scope.
     *
     * @param projector the projector to check
     * @param request the request passed to the projector with {@code largeRaw}
     * @param largeRaw a raw response over {@code limitBytes}; checked with {@link #checkLargeRawIsLarge}
     * @param limitBytes the agent limit, in UTF-8 bytes
     * @throws AssertionError when it does
     */
    public static void checkDoesNotCopyRawThrough(Projector projector, ToolRequest request, String largeRaw,
            long limitBytes) {
        ProjectorChecks.checkDoesNotCopyRawThrough(projector, request, largeRaw, limitBytes);
    }
}
