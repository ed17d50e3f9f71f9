package io.toolboundary.testkit;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.toolboundary.application.Projector;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolRequest;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.toolboundary.domain.Utf8;
import io.vavr.control.Either;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link Projector} must keep, as a JUnit 5 suite. A projector team extends it and
 * supplies the projector, a raw response in which it must find evidence, one in which it must not,
 * and a raw response larger than the agent limit.
 *
 * <p>It proves: every sample projects to a result the boundary accepts within the agent limit (UTF-8
 * bytes of content and scope); evidence is labelled EVIDENCE_FOUND and its absence NO_EVIDENCE with a
 * non-blank scope; a large raw response is never copied through whole. Each check is also a public
 * static method, so that it can be run against any projector outside JUnit.
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

    /** The projector under test; may be a new instance per call. */
    protected abstract Projector projector();

    /** A raw response in which the projector must find evidence. */
    protected abstract String rawWithEvidence();

    /** A raw response in which the projector must find nothing. */
    protected abstract String rawWithoutEvidence();

    /** A raw response well over {@link #agentLimitBytes()}, as the tool can really produce it. */
    protected abstract String largeRaw();

    /** The agent result limit the projector must respect, in UTF-8 bytes. */
    protected long agentLimitBytes() {
        return ToolBoundaryConfig.DEFAULT_AGENT_RESULT_BYTES;
    }

    /** The request passed to the projector with every sample. */
    protected ToolRequest request() {
        return sampleRequest("projector-under-test", Fixtures.DEFAULT_ARGUMENTS);
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

    /** A request for projector checks: a fresh key, the given tool and arguments. */
    public static ToolRequest sampleRequest(String toolName, String arguments) {
        InvocationKey key = InvocationKey.of(new RunId(Fixtures.anyRunId()), new ToolCallId(Fixtures.anyToolCallId()));
        return new ToolRequest(key, new ToolName(toolName), arguments);
    }

    /**
     * Asserts that {@code largeRaw} is over {@code limitBytes}, so that the other checks on it mean
     * something.
     *
     * @throws AssertionError when it is not
     */
    public static void checkLargeRawIsLarge(String largeRaw, long limitBytes) {
        requireNonNull(largeRaw, "largeRaw is null");
        assertThat(Utf8.exceeds(largeRaw, limitBytes))
                .as("largeRaw() must be over the agent limit of %d UTF-8 bytes, was %d", limitBytes,
                        Utf8.byteLength(largeRaw))
                .isTrue();
    }

    /**
     * Asserts that the projector returns, without throwing, a projection the boundary accepts within
     * {@code limitBytes}: a valid evidence status, a scope for NO_EVIDENCE, Unicode text, content and
     * scope together within the limit.
     *
     * @return the accepted result
     * @throws AssertionError when it does not
     */
    public static AgentResult checkWithinLimit(Projector projector, ToolRequest request, String raw, long limitBytes) {
        Projection projection = project(projector, request, raw);
        Either<BoundaryError, AgentResult> result = AgentResult.of(projection, limitBytes);
        if (result.isLeft()) {
            fail("the boundary refuses the projection with %s (limit %d UTF-8 bytes, content %d bytes)",
                    result.getLeft().code(), limitBytes, Utf8.byteLength(projection.content()));
        }
        return result.get();
    }

    /**
     * Asserts that the projector labels {@code raw} EVIDENCE_FOUND within the limit.
     *
     * @throws AssertionError when it does not
     */
    public static void checkEvidenceFound(Projector projector, ToolRequest request, String raw, long limitBytes) {
        AgentResult result = checkWithinLimit(projector, request, raw, limitBytes);
        assertThat(result.evidence()).as("evidence status of a raw response with evidence")
                .isEqualTo(EvidenceStatus.EVIDENCE_FOUND);
    }

    /**
     * Asserts that the projector labels {@code raw} NO_EVIDENCE within the limit, with a non-blank
     * scope saying what was searched.
     *
     * @throws AssertionError when it does not
     */
    public static void checkNoEvidenceWithScope(Projector projector, ToolRequest request, String raw,
            long limitBytes) {
        AgentResult result = checkWithinLimit(projector, request, raw, limitBytes);
        assertThat(result.evidence()).as("evidence status of a raw response without evidence")
                .isEqualTo(EvidenceStatus.NO_EVIDENCE);
        assertThat(result.scope().getOrElse("")).as("scope of a negative observation").isNotBlank();
    }

    /**
     * Asserts that the projection of a raw response over the limit neither throws nor carries the
     * whole raw response in its content or scope.
     *
     * @throws AssertionError when it does
     */
    public static void checkDoesNotCopyRawThrough(Projector projector, ToolRequest request, String largeRaw,
            long limitBytes) {
        checkLargeRawIsLarge(largeRaw, limitBytes);
        Projection projection = project(projector, request, largeRaw);
        assertThat(projection.content().contains(largeRaw)).as("content copies the whole raw response").isFalse();
        assertThat(projection.scope().exists(scope -> scope.contains(largeRaw)))
                .as("scope copies the whole raw response").isFalse();
    }

    private static Projection project(Projector projector, ToolRequest request, String raw) {
        requireNonNull(projector, "projector is null");
        requireNonNull(request, "request is null");
        requireNonNull(raw, "raw is null");
        Projection projection;
        try {
            projection = projector.project(request, raw);
        } catch (Exception failure) {
            throw new AssertionError("the projector threw " + failure.getClass().getName(), failure);
        }
        if (projection == null) {
            fail("the projector returned null");
        }
        return projection;
    }
}
