package io.toolboundary.testkit;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.toolboundary.application.Projector;
import io.toolboundary.application.ToolRequest;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.Projection;
import io.vavr.control.Either;
import java.util.HashSet;
import java.util.Set;

/**
 * The assertions behind the checks {@link ProjectorContract} publishes: each runs the projector once
 * and fails with an {@link AssertionError} that says which promise was broken. The contract documents
 * each check under its own name; this class only holds their bodies.
 */
final class ProjectorChecks {

    /** See {@link ProjectorContract#ECHO_WINDOW_CHARS}. */
    static final int ECHO_WINDOW_CHARS = 32;

    private ProjectorChecks() {
    }

    /** See {@link ProjectorContract#checkWithinLimit(Projector, ToolRequest, String, long)}. */
    static AgentResult checkWithinLimit(Projector projector, ToolRequest request, String raw, long limitBytes) {
        Projection projection = project(projector, request, raw);
        Either<BoundaryError, AgentResult> result = AgentResult.of(projection, limitBytes);
        if (result.isLeft()) {
            fail("the boundary refuses the projection with %s (limit %d UTF-8 bytes, content %d bytes)",
                    result.getLeft().code(), limitBytes, Projector.utf8Length(projection.content()));
        }
        return result.get();
    }

    /** See {@link ProjectorContract#checkEvidenceFound(Projector, ToolRequest, String, long)}. */
    static void checkEvidenceFound(Projector projector, ToolRequest request, String raw, long limitBytes) {
        AgentResult result = checkWithinLimit(projector, request, raw, limitBytes);
        assertThat(result.evidence()).as("evidence status of a raw response with evidence")
                .isEqualTo(EvidenceStatus.EVIDENCE_FOUND);
    }

    /** See {@link ProjectorContract#checkNoEvidenceWithScope(Projector, ToolRequest, String, long)}. */
    static void checkNoEvidenceWithScope(Projector projector, ToolRequest request, String raw, long limitBytes) {
        AgentResult result = checkWithinLimit(projector, request, raw, limitBytes);
        assertThat(result.evidence()).as("evidence status of a raw response without evidence")
                .isEqualTo(EvidenceStatus.NO_EVIDENCE);
        assertThat(result.scope().getOrElse("")).as("scope of a negative observation").isNotBlank();
    }

    /** See {@link ProjectorContract#checkLargeRawIsLarge(String, long)}. */
    static void checkLargeRawIsLarge(String largeRaw, long limitBytes) {
        requireNonNull(largeRaw, "largeRaw is null");
        assertThat(Projector.utf8Length(largeRaw) > limitBytes)
                .as("largeRaw() must be over the agent limit of %d UTF-8 bytes, was %d", limitBytes,
                        Projector.utf8Length(largeRaw))
                .isTrue();
    }

    /** See {@link ProjectorContract#checkDoesNotCopyRawThrough(Projector, ToolRequest, String, long)}. */
    static void checkDoesNotCopyRawThrough(Projector projector, ToolRequest request, String largeRaw,
            long limitBytes) {
        checkLargeRawIsLarge(largeRaw, limitBytes);
        Projection projection = project(projector, request, largeRaw);
        assertThat(projection.content().contains(largeRaw)).as("content copies the whole raw response").isFalse();
        assertThat(projection.scope().exists(scope -> scope.contains(largeRaw)))
                .as("scope copies the whole raw response").isFalse();
    }

    /** See {@link ProjectorContract#checkNonAsciiRaw(Projector, ToolRequest, String, long)}. */
    static AgentResult checkNonAsciiRaw(Projector projector, ToolRequest request, String raw, long limitBytes) {
        AgentResult result = checkWithinLimit(projector, request, raw, limitBytes);
        if (raw.indexOf('\uFFFD') < 0) {
            assertThat(result.content().indexOf('\uFFFD') < 0 && result.scope().forAll(s -> s.indexOf('\uFFFD') < 0))
                    .as("the projection has a U+FFFD the raw response did not have: a character was cut through its"
                            + " UTF-8 bytes")
                    .isTrue();
        }
        assertThat(result.content().contains(raw) && Projector.utf8Length(raw) > limitBytes)
                .as("content copies the whole raw response").isFalse();
        return result;
    }

    /** See {@link ProjectorContract#checkLargeRequest(Projector, ToolRequest, String, long, long)}. */
    static AgentResult checkLargeRequest(Projector projector, ToolRequest largeRequest, String raw, long limitBytes,
            long maxScopeBytes) {
        AgentResult result = checkWithinLimit(projector, largeRequest, raw, limitBytes);
        long scopeBytes = result.scope().map(Projector::utf8Length).getOrElse(0L);
        assertThat(scopeBytes).as("UTF-8 bytes of the scope for a request of %d bytes (bound %d)",
                Projector.utf8Length(largeRequest.arguments()), maxScopeBytes).isLessThanOrEqualTo(maxScopeBytes);
        assertThat(echoes(result.content(), largeRequest.arguments()))
                .as("content echoes the request's arguments").isFalse();
        assertThat(result.scope().exists(scope -> echoes(scope, largeRequest.arguments())))
                .as("scope echoes the request's arguments").isFalse();
        return result;
    }

    /** See {@link ProjectorContract#checkNoCredential(Projector, ToolRequest, String, String, long)}. */
    static void checkNoCredential(Projector projector, ToolRequest request, String raw, String secret,
            long limitBytes) {
        requireNonNull(secret, "secret is null");
        AgentResult result = checkWithinLimit(projector, request, raw, limitBytes);
        String shape = ProjectorSamples.credentialShape(secret);
        assertThat(result.content().contains(secret)).as("the credential in \"%s\" reaches the content", shape)
                .isFalse();
        assertThat(result.scope().exists(scope -> scope.contains(secret)))
                .as("the credential in \"%s\" reaches the scope", shape).isFalse();
    }

    /** True when {@code text} holds {@value #ECHO_WINDOW_CHARS} characters in a row of {@code source}. */
    private static boolean echoes(String text, String source) {
        if (text.length() < ECHO_WINDOW_CHARS || source.length() < ECHO_WINDOW_CHARS) {
            return false;
        }
        Set<String> windows = new HashSet<>();
        for (int i = 0; i + ECHO_WINDOW_CHARS <= text.length(); i++) {
            windows.add(text.substring(i, i + ECHO_WINDOW_CHARS));
        }
        for (int i = 0; i + ECHO_WINDOW_CHARS <= source.length(); i++) {
            if (windows.contains(source.substring(i, i + ECHO_WINDOW_CHARS))) {
                return true;
            }
        }
        return false;
    }

    /** The projector's projection of {@code raw}; an exception or {@code null} from it fails the check. */
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
