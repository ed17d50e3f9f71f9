package io.toolboundary.adapter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.Projector;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.testkit.redis.RedisDeployment;
import io.toolboundary.testkit.redis.RedisServerFixture;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link ToolBoundary#invoke} end to end with the Redis store, on a standalone server and on a cluster. */
class RedisToolBoundaryTest {

    private static final String RAW = "{\"hits\":[\"\uD83D\uDE00 error at 10:01\"],\"total\":1}";

    private final AtomicInteger executions = new AtomicInteger();

    static Stream<Arguments> deployments() {
        return Stream.of(
                Arguments.of("standalone", (Supplier<RedisDeployment>) RedisServerFixture::standalone),
                Arguments.of("cluster", (Supplier<RedisDeployment>) RedisServerFixture::cluster));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("deployments")
    @DisplayName("Projector succeeds")
    void storesRawAndResultInOneReadyRecordAndReturnsOnlyTheResult(String name, Supplier<RedisDeployment> redis) {
        ToolBoundary boundary = boundary(redis.get(), (request, raw) -> Projection.evidenceFound("1 error at 10:01"));
        RunContext run = run();

        Either<BoundaryError, AgentResult> result = boundary.invoke(run, envelope(run, "call-1"));

        assertThat(result).isEqualTo(Either.right(
                new AgentResult("1 error at 10:01", EvidenceStatus.EVIDENCE_FOUND, Option.none())));
        CanonicalRecord record = boundary.records().find(run.runId(), new ToolCallId("call-1")).get().get();
        assertThat(record.status()).isEqualTo(InvocationStatus.READY);
        assertThat(record.rawResponse()).isEqualTo(Option.of(RAW));
        assertThat(record.request()).isEqualTo("{\"service\":\"checkout\"}");
        assertThat(record.key().toolCallId().value()).isEqualTo("call-1");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("deployments")
    @DisplayName("Duplicate Tool Call ID is submitted")
    void runsTheToolOnceAndRefusesTheDuplicateWithoutOverwritingTheRecord(String name, Supplier<RedisDeployment> redis) {
        ToolBoundary boundary = boundary(redis.get(), (request, raw) -> Projection.evidenceFound("found"));
        RunContext run = run();
        boundary.invoke(run, envelope(run, "call-1"));
        CanonicalRecord first = boundary.records().find(run.runId(), new ToolCallId("call-1")).get().get();

        Either<BoundaryError, AgentResult> second = boundary.invoke(run, envelope(run, "call-1"));

        assertThat(second).isEqualTo(Either.left(BoundaryError.of(ErrorCode.DUPLICATE_TOOL_CALL)));
        assertThat(executions).hasValue(1);
        assertThat(boundary.records().find(run.runId(), new ToolCallId("call-1"))).isEqualTo(Either.right(Option.of(first)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("deployments")
    @DisplayName("Projection fails")
    void endsTheRecordInErrorKeepingTheRawResponseWhenTheProjectorThrows(String name, Supplier<RedisDeployment> redis) {
        ToolBoundary boundary = boundary(redis.get(), (request, raw) -> {
            throw new IllegalStateException("projector broke on " + raw);
        });
        RunContext run = run();

        Either<BoundaryError, AgentResult> result = boundary.invoke(run, envelope(run, "call-1"));

        assertThat(result).isEqualTo(Either.left(BoundaryError.of(ErrorCode.PROJECTION_FAILED)));
        CanonicalRecord record = boundary.records().find(run.runId(), new ToolCallId("call-1")).get().get();
        assertThat(record.status()).isEqualTo(InvocationStatus.ERROR);
        assertThat(record.errorCode()).isEqualTo(Option.of(ErrorCode.PROJECTION_FAILED));
        assertThat(record.evidence()).isEqualTo(Option.of(EvidenceStatus.ERROR));
        assertThat(record.rawResponse()).isEqualTo(Option.of(RAW));
        assertThat(record.agentResult()).isEqualTo(Option.none());
    }

    private ToolBoundary boundary(RedisDeployment redis, Projector projector) {
        RedisCanonicalInvocationStore store = RedisCanonicalInvocationStoreFactory.create(
                RedisTestServers.client(redis), RedisStoreOptions.custom().keyPrefix(RedisTestServers.PREFIX).build());
        return ToolBoundary.builder()
                .store(store)
                .accessPolicy(AccessPolicy.allowAll())
                .tool(ToolBinding.readOnly("search_logs", request -> {
                    executions.incrementAndGet();
                    return RAW;
                }, projector))
                .build();
    }

    private static RunContext run() {
        return RunContext.active(new RunId("run-" + UUID.randomUUID()),
                Instant.now().plus(1, ChronoUnit.HOURS), 10);
    }

    private static ToolCallEnvelope envelope(RunContext run, String toolCallId) {
        return ToolCallEnvelope.of(run.runId().value(), toolCallId, "search_logs", "{\"service\":\"checkout\"}");
    }
}
