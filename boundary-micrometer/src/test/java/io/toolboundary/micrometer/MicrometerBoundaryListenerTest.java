package io.toolboundary.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.InvocationStart;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Projection;
import io.toolboundary.tck.store.FaultyStores;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The meters a real {@link ToolBoundary} on the in-memory store produces through the listener. */
class MicrometerBoundaryListenerTest {

    static final Set<String> CALL_TAG_KEYS = Set.of("tool", "outcome", "evidence", "error.code");

    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    /** How long the log-search tool runs at least; its projector runs {@link #PROJECTOR_TIME} at least. */
    static final Duration TOOL_TIME = Duration.ofMillis(120);
    static final Duration PROJECTOR_TIME = Duration.ofMillis(60);
    final RunContext run = Fixtures.anyRunContext();

    ToolBoundary boundary(MicrometerBoundaryListener listener, CanonicalInvocationStore store) {
        return ToolBoundary.builder()
                .store(store)
                .accessPolicy(AccessPolicy.allowAll())
                .listener(listener)
                .tool(ToolBinding.readOnly("log-search",
                        request -> {
                            spend(TOOL_TIME);
                            return "raw rows";
                        },
                        (request, raw) -> {
                            spend(PROJECTOR_TIME);
                            return Projection.evidenceFound("2 rows");
                        }))
                .tool(ToolBinding.readOnly("metrics", FakeTools.returning("raw"),
                        FakeProjectors.noEvidence("no breach", "p99 10:00-10:15")))
                .tool(ToolBinding.readOnly("flaky", FakeTools.throwing("secret"), FakeProjectors.evidenceFound("never")))
                .tool(ToolBinding.readOnly("bad-projector", FakeTools.returning("raw"), FakeProjectors.throwing("secret")))
                .build();
    }

    /** Busy for at least {@code time} by the monotonic clock the boundary measures with by default. */
    static void spend(Duration time) {
        long started = System.nanoTime();
        long left;
        while ((left = time.toNanos() - (System.nanoTime() - started)) > 0) {
            LockSupport.parkNanos(left);
        }
    }

    ToolBoundary boundary() {
        return boundary(MicrometerBoundaryListener.of(registry), InMemoryCanonicalInvocationStore.create());
    }

    Either<BoundaryError, ?> call(ToolBoundary boundary, String tool, String toolCallId) {
        return call(boundary, Fixtures.opened(boundary, run), tool, toolCallId);
    }

    Either<BoundaryError, ?> call(ToolBoundary boundary, RunContext in, String tool, String toolCallId) {
        return boundary.invoke(in, Fixtures.envelope(in).withToolName(tool).withToolCallId(toolCallId).build());
    }

    double calls(String tool, String outcome, String evidence, String errorCode) {
        Counter counter = registry.find(MicrometerBoundaryListener.CALLS)
                .tags("tool", tool, "outcome", outcome, "evidence", evidence, "error.code", errorCode)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    double totalCalls() {
        return registry.find(MicrometerBoundaryListener.CALLS).counters().stream().mapToDouble(Counter::count).sum();
    }

    @Test
    void countsAReadyCallWithItsEvidenceAndTimesExecutionAndProjection() {
        ToolBoundary boundary = boundary();
        RunContext opened = Fixtures.opened(boundary, run);

        long started = System.nanoTime();
        call(boundary, opened, "log-search", "call_1");
        long callNanos = System.nanoTime() - started;

        assertThat(calls("log-search", "ready", "EVIDENCE_FOUND", "none")).isEqualTo(1);
        Timer execution = registry.get(MicrometerBoundaryListener.EXECUTION).tag("tool", "log-search").timer();
        assertThat(execution.count()).isEqualTo(1);
        assertThat(execution.totalTime(TimeUnit.NANOSECONDS)).as("the tool's own time")
                .isGreaterThanOrEqualTo(TOOL_TIME.toNanos());
        Timer projection = registry.get(MicrometerBoundaryListener.PROJECTION).tag("tool", "log-search").timer();
        assertThat(projection.count()).isEqualTo(1);
        assertThat(projection.totalTime(TimeUnit.NANOSECONDS)).as("the projector's own time")
                .isGreaterThanOrEqualTo(PROJECTOR_TIME.toNanos());
        assertThat(execution.totalTime(TimeUnit.NANOSECONDS) + projection.totalTime(TimeUnit.NANOSECONDS))
                .as("two separate spans within the call, neither holding the other")
                .isLessThanOrEqualTo(callNanos);
    }

    @Test
    void countsARepeatedCallAnsweredFromItsReadyRecordAsReplayed() {
        ToolBoundary boundary = ToolBoundary.builder().store(InMemoryCanonicalInvocationStore.create())
                .accessPolicy(AccessPolicy.allowAll()).listener(MicrometerBoundaryListener.of(registry))
                .config(io.toolboundary.application.ToolBoundaryConfig.custom()
                        .replayReadyDuplicates(true).build())
                .tool(ToolBinding.readOnly("metrics", FakeTools.returning("raw"),
                        FakeProjectors.noEvidence("no breach", "p99 10:00-10:15")))
                .build();
        RunContext opened = Fixtures.opened(boundary, run);

        call(boundary, opened, "metrics", "call_1");
        call(boundary, opened, "metrics", "call_1");

        assertThat(calls("metrics", "ready", "NO_EVIDENCE", "none")).isEqualTo(1);
        assertThat(calls("metrics", "replayed", "NO_EVIDENCE", "none")).isEqualTo(1);
        assertThat(totalCalls()).isEqualTo(2);
    }

    @Test
    void countsANoEvidenceCallApartFromEvidence() {
        ToolBoundary boundary = boundary();

        call(boundary, "metrics", "call_1");
        call(boundary, "log-search", "call_2");

        assertThat(calls("metrics", "ready", "NO_EVIDENCE", "none")).isEqualTo(1);
        assertThat(calls("log-search", "ready", "EVIDENCE_FOUND", "none")).isEqualTo(1);
        assertThat(totalCalls()).isEqualTo(2);
    }

    @Test
    void countsAFailingToolAsAnErrorRecordAndStillTimesItsExecution() {
        call(boundary(), "flaky", "call_1");

        assertThat(calls("flaky", "error", "ERROR", "EXECUTION_FAILED")).isEqualTo(1);
        assertThat(registry.get(MicrometerBoundaryListener.EXECUTION).tag("tool", "flaky").timer().count()).isEqualTo(1);
        assertThat(registry.find(MicrometerBoundaryListener.PROJECTION).tag("tool", "flaky").timer())
                .as("the projector never ran").isNull();
    }

    @Test
    void countsAFailingProjectorAsAnErrorRecordAndTimesTheProjection() {
        call(boundary(), "bad-projector", "call_1");

        assertThat(calls("bad-projector", "error", "ERROR", "PROJECTION_FAILED")).isEqualTo(1);
        assertThat(registry.get(MicrometerBoundaryListener.PROJECTION).tag("tool", "bad-projector").timer().count())
                .isEqualTo(1);
    }

    @Test
    void countsADuplicateAsRejectedWithAnUnknownToolByDefault() {
        ToolBoundary boundary = boundary();

        call(boundary, "log-search", "call_1");
        call(boundary, "log-search", "call_1");

        assertThat(calls("log-search", "ready", "EVIDENCE_FOUND", "none")).isEqualTo(1);
        assertThat(calls("unknown", "rejected", "none", "DUPLICATE_TOOL_CALL")).isEqualTo(1);
        assertThat(registry.get(MicrometerBoundaryListener.EXECUTION).timer().count()).as("ran once").isEqualTo(1);
    }

    @Test
    void namesTheToolOfARejectionWhenTheHarnessListedItAsRegistered() {
        MicrometerBoundaryListener listener = MicrometerBoundaryListener.of(registry, List.of("log-search", "metrics"));
        ToolBoundary boundary = boundary(listener, InMemoryCanonicalInvocationStore.create());

        call(boundary, "log-search", "call_1");
        call(boundary, "log-search", "call_1");
        call(boundary, "drop-database", "call_2");

        assertThat(calls("log-search", "rejected", "none", "DUPLICATE_TOOL_CALL")).isEqualTo(1);
        assertThat(calls("unknown", "rejected", "none", "TOOL_NOT_REGISTERED")).isEqualTo(1);
    }

    @Test
    void countsACallOfARunNeverOpenedAsRejectedWithItsCode() {
        call(boundary(), run, "log-search", "call_1");

        assertThat(calls("unknown", "rejected", "none", "RUN_NOT_OPENED")).isEqualTo(1);
        assertThat(registry.find(MicrometerBoundaryListener.EXECUTION).timer()).as("nothing ran").isNull();
    }

    @Test
    void countsEveryCallOfARunWhoseStoredStateWasLostAsRejectedWithItsCode() {
        MicrometerBoundaryListener listener = MicrometerBoundaryListener.of(registry, List.of("log-search"));
        RunContext opened = Fixtures.opened(boundary(listener, InMemoryCanonicalInvocationStore.create()), run);
        // The store the run was opened on restarts empty: the same boundary setup on a fresh store.
        ToolBoundary restarted = boundary(listener, InMemoryCanonicalInvocationStore.create());

        call(restarted, opened, "log-search", "call_1");
        call(restarted, opened, "log-search", "call_2");

        assertThat(calls("log-search", "rejected", "none", "RUN_STATE_LOST")).isEqualTo(2);
        assertThat(registry.find(MicrometerBoundaryListener.EXECUTION).timer()).as("nothing ran").isNull();
    }

    @Test
    void countsAMissingToolCallIdAsRejected() {
        call(boundary(), "log-search", null);

        assertThat(calls("unknown", "rejected", "none", "TOOL_CALL_ID_MISSING")).isEqualTo(1);
        assertThat(registry.find(MicrometerBoundaryListener.EXECUTION).timer()).isNull();
    }

    @Test
    void keepsTagsBoundedWhateverToolNamesAndIdsTheAgentSends() {
        ToolBoundary boundary = boundary();
        Random random = new Random(20250301L);

        for (int i = 0; i < 200; i++) {
            String tool = random.nextInt(4) == 0 ? "log-search" : "invented-" + random.nextInt(1_000_000);
            call(boundary, tool, "call_" + random.nextLong());
        }

        Set<String> tools = registry.getMeters().stream().map(meter -> meter.getId().getTag("tool"))
                .collect(Collectors.toSet());
        assertThat(tools).containsExactlyInAnyOrder("log-search", "unknown");
        assertThat(registry.getMeters()).hasSizeLessThanOrEqualTo(4);
        assertThat(totalCalls()).isEqualTo(200);
    }

    @Test
    void neverTagsARunIdToolCallIdOrPayload() {
        ToolBoundary boundary = boundary();
        String toolCallId = "call_" + "x".repeat(20);

        call(boundary, "log-search", toolCallId);
        call(boundary, "flaky", "call_2");
        call(boundary, "log-search", toolCallId);

        List<String> values = registry.getMeters().stream()
                .flatMap(meter -> meter.getId().getTags().stream()).map(Tag::getValue).toList();
        assertThat(values).isNotEmpty().noneMatch(value -> value.contains(run.runId().value())
                || value.contains("call_") || value.contains("raw") || value.contains("secret")
                || value.contains(Fixtures.DEFAULT_ARGUMENTS));
    }

    @Test
    void givesEveryCallCounterTheSameTagKeys() {
        ToolBoundary boundary = boundary();
        call(boundary, "log-search", "call_1");
        call(boundary, "log-search", "call_1");
        call(boundary, "flaky", "call_2");
        call(boundary, "nope", "call_3");

        List<Meter> counters = registry.find(MicrometerBoundaryListener.CALLS).meters().stream().toList();
        assertThat(counters).hasSize(4).allSatisfy(meter -> assertThat(meter.getId().getTags())
                .extracting(Tag::getKey).containsExactlyInAnyOrderElementsOf(CALL_TAG_KEYS));
    }

    @Test
    void countsACompletionTheStoreRefusedAsStoreFailed() {
        InMemoryCanonicalInvocationStore memory = InMemoryCanonicalInvocationStore.create();
        CanonicalInvocationStore refusingCompletion = FaultyStores.refusingComplete(memory, StoreFailure.unavailable());

        call(boundary(MicrometerBoundaryListener.of(registry), refusingCompletion), "log-search", "call_1");

        assertThat(calls("unknown", "store_failed", "none", "STORE_UNAVAILABLE")).isEqualTo(1);
        assertThat(totalCalls()).isEqualTo(1);
    }

    @Test
    void countsAnUnexpectedFailureAsInternalError() {
        CanonicalInvocationStore broken = FaultyStores.crashingOnBegin(InMemoryCanonicalInvocationStore.create(), "store bug");

        Either<BoundaryError, ?> outcome = call(boundary(MicrometerBoundaryListener.of(registry), broken), "log-search", "call_1");

        assertThat(outcome.getLeft().code()).isEqualTo(ErrorCode.INTERNAL_ERROR);
        assertThat(calls("unknown", "internal_error", "none", "INTERNAL_ERROR")).isEqualTo(1);
    }

    @Test
    void refusesARegisteredToolNameThatIsNotASafeToolName() {
        assertThatIllegalArgumentException().isThrownBy(() -> MicrometerBoundaryListener.of(registry, List.of("log search")));
    }

    @Test
    void countsEachCallOnceWhateverItsEnd() {
        ToolBoundary boundary = boundary();
        List<ToolCallEnvelope> envelopes = List.of(
                Fixtures.envelope(run).withToolName("log-search").withToolCallId("c1").build(),
                Fixtures.envelope(run).withToolName("metrics").withToolCallId("c2").build(),
                Fixtures.envelope(run).withToolName("flaky").withToolCallId("c3").build(),
                Fixtures.envelope(run).withToolName("bad-projector").withToolCallId("c4").build(),
                Fixtures.envelope(run).withToolName("log-search").withToolCallId("c1").build(),
                Fixtures.envelope(run).withToolName("log-search").withToolCallId("").build(),
                Fixtures.envelope(run).withToolName("log-search").withToolCallId("c5").withArguments("[]").build(),
                Fixtures.envelope().withToolName("log-search").withToolCallId("c6").build());

        RunContext opened = Fixtures.opened(boundary, run);
        envelopes.forEach(envelope -> boundary.invoke(opened, envelope));

        assertThat(totalCalls()).isEqualTo(envelopes.size());
        assertThat(calls("unknown", "rejected", "none", "ARGUMENTS_INVALID")).isEqualTo(1);
        assertThat(calls("unknown", "rejected", "none", "RUN_MISMATCH")).isEqualTo(1);
    }
}
