package io.toolboundary.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelBaggageManager;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.BoundaryListener;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.Projection;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.vavr.control.Either;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The GenAI tool spans of a real {@link ToolBoundary}, exported through micrometer-tracing's OpenTelemetry bridge
 * into the OpenTelemetry SDK's in-memory exporter.
 */
class ToolSpansTest {

    static final String SECRET_RAW = "raw rows with password=hunter2";
    static final String ARGUMENTS = "{\"query\":\"ERROR\"}";

    final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    final SdkTracerProvider provider =
            SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
    final OtelCurrentTraceContext currentTraceContext = new OtelCurrentTraceContext();
    final OtelTracer tracer = new OtelTracer(provider.get("tool-spans-test"), currentTraceContext, event -> {
    }, new OtelBaggageManager(currentTraceContext, List.of(), List.of()));
    final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    final ObservationRegistry observations = ObservationRegistry.create();
    final RunContext run = Fixtures.anyRunContext();

    ToolSpansTest() {
        observations.observationConfig()
                .observationHandler(new DefaultTracingObservationHandler(tracer))
                .observationHandler(new DefaultMeterObservationHandler(meters));
    }

    @AfterEach
    void shutDown() {
        provider.close();
    }

    ToolBoundary boundary(BoundaryListener listener) {
        return ToolBoundary.builder()
                .store(InMemoryCanonicalInvocationStore.create())
                .accessPolicy(AccessPolicy.allowAll())
                .config(ToolBoundaryConfig.custom().replayReadyDuplicates(true).build())
                .listener(listener)
                .tool(ToolBinding.readOnly("log-search", FakeTools.returning(SECRET_RAW),
                        (request, raw) -> Projection.evidenceFound("2 rows")))
                .tool(ToolBinding.readOnly("flaky", FakeTools.throwing("secret"), FakeProjectors.evidenceFound("never")))
                .build();
    }

    Either<BoundaryError, AgentResult> call(ToolBoundary boundary, RunContext opened, String tool, String toolCallId) {
        return boundary.invoke(opened, Fixtures.envelope(opened).withToolName(tool).withToolCallId(toolCallId)
                .withArguments(ARGUMENTS).build());
    }

    static String attribute(SpanData span, String key) {
        return span.getAttributes().get(AttributeKey.stringKey(key));
    }

    static SpanData named(List<SpanData> spans, String name) {
        return spans.stream().filter(span -> span.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no span " + name + " in " + spans));
    }

    @Test
    void aReadyCallIsAnExecuteToolSpanInsideTheCurrentObservation() {
        ToolBoundary boundary = boundary(ToolSpans.of(observations));
        RunContext opened = Fixtures.opened(boundary, run);

        Either<BoundaryError, AgentResult> outcome = Observation.createNotStarted("agent.turn", observations)
                .observe(() -> call(boundary, opened, "log-search", "call-1"));

        assertThat(outcome.isRight()).isTrue();

        List<SpanData> spans = exporter.getFinishedSpanItems();
        SpanData tool = named(spans, "execute_tool log-search");
        SpanData turn = named(spans, "agent.turn");
        assertThat(tool.getKind()).isEqualTo(SpanKind.INTERNAL);
        assertThat(tool.getParentSpanId()).isEqualTo(turn.getSpanId());
        assertThat(tool.getTraceId()).isEqualTo(turn.getTraceId());
        assertThat(tool.getStatus().getStatusCode()).isNotEqualTo(StatusCode.ERROR);
        assertThat(attribute(tool, "gen_ai.operation.name")).isEqualTo("execute_tool");
        assertThat(attribute(tool, "gen_ai.tool.name")).isEqualTo("log-search");
        assertThat(attribute(tool, "gen_ai.tool.type")).isEqualTo("function");
        assertThat(attribute(tool, "gen_ai.tool.call.id")).isEqualTo("call-1");
        assertThat(attribute(tool, "toolboundary.run.id")).isEqualTo(run.runId().value());
        assertThat(attribute(tool, "toolboundary.outcome")).isEqualTo("ready");
        assertThat(attribute(tool, "toolboundary.evidence")).isEqualTo("EVIDENCE_FOUND");
        assertThat(attribute(tool, "toolboundary.error.code")).isEqualTo("none");
        assertThat(attribute(tool, "toolboundary.replayed")).isEqualTo("false");
        assertThat(attribute(tool, "error.type")).isNull();
        // The store's share of the call: positive, and within the span's own duration.
        assertThat(new java.math.BigDecimal(attribute(tool, "toolboundary.store.duration_ms"))).isPositive()
                .isLessThanOrEqualTo(java.math.BigDecimal.valueOf((tool.getEndEpochNanos() - tool.getStartEpochNanos()) / 1e6));
        // Content is opt-in.
        assertThat(attribute(tool, "gen_ai.tool.call.arguments")).isNull();
        assertThat(attribute(tool, "gen_ai.tool.call.result")).isNull();
    }

    @Test
    void aFailedToolEndsTheSpanInErrorWithItsCode() {
        ToolBoundary boundary = boundary(ToolSpans.of(observations));
        RunContext opened = Fixtures.opened(boundary, run);

        assertThat(call(boundary, opened, "flaky", "call-2").isLeft()).isTrue();

        SpanData tool = named(exporter.getFinishedSpanItems(), "execute_tool flaky");
        assertThat(tool.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(attribute(tool, "error.type")).isEqualTo("EXECUTION_FAILED");
        assertThat(attribute(tool, "toolboundary.error.code")).isEqualTo("EXECUTION_FAILED");
        assertThat(attribute(tool, "toolboundary.outcome")).isEqualTo("error");
        // The tool's exception text never reaches the trace.
        assertThat(tool.toString()).doesNotContain("secret");
    }

    @Test
    void aRejectedCallNamesNoUnregisteredToolAndAReplayIsMarked() {
        ToolBoundary boundary = boundary(ToolSpans.builder(observations).registeredTools(List.of("log-search")).build());
        RunContext opened = Fixtures.opened(boundary, run);

        call(boundary, opened, "rm -rf", "call-3");
        call(boundary, opened, "log-search", "call-4");
        call(boundary, opened, "log-search", "call-4");

        List<SpanData> spans = exporter.getFinishedSpanItems();
        assertThat(spans).extracting(SpanData::getName)
                .containsExactly("execute_tool unknown", "execute_tool log-search", "execute_tool log-search");
        assertThat(spans.get(0).getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(attribute(spans.get(0), "toolboundary.outcome")).isEqualTo("rejected");
        assertThat(attribute(spans.get(0), "gen_ai.tool.name")).isEqualTo("unknown");
        assertThat(attribute(spans.get(0), "toolboundary.store.duration_ms")).as("refused before the store").isNull();
        assertThat(attribute(spans.get(2), "toolboundary.store.duration_ms")).as("the replay's begin and read").isNotNull();
        assertThat(attribute(spans.get(2), "toolboundary.replayed")).isEqualTo("true");
        assertThat(attribute(spans.get(2), "toolboundary.outcome")).isEqualTo("replayed");
        assertThat(spans.get(2).getStatus().getStatusCode()).isNotEqualTo(StatusCode.ERROR);
        // Each call is its own root here: no observation was current.
        assertThat(spans).allSatisfy(span -> assertThat(span.getParentSpanContext().isValid()).isFalse());
    }

    @Test
    void capturesTheBoundedAgentTextAndArgumentsOnlyWhenOptedIn() {
        ToolBoundary boundary = boundary(ToolSpans.builder(observations).captureContent(true)
                .descriptions(Map.of("log-search", "Searches the incident's logs")).build());
        RunContext opened = Fixtures.opened(boundary, run);

        Either<BoundaryError, AgentResult> outcome = call(boundary, opened, "log-search", "call-5");

        SpanData tool = named(exporter.getFinishedSpanItems(), "execute_tool log-search");
        assertThat(attribute(tool, "gen_ai.tool.call.result")).isEqualTo(ToolBoundary.agentText(outcome))
                .contains("2 rows").doesNotContain("hunter2");
        assertThat(attribute(tool, "gen_ai.tool.call.arguments")).isEqualTo(ARGUMENTS);
        assertThat(attribute(tool, "gen_ai.tool.description")).isEqualTo("Searches the incident's logs");
        assertThat(tool.toString()).doesNotContain(SECRET_RAW);
    }

    @Test
    void aToolThatCallsTheBoundaryAgainNestsTheInnerSpanInTheOuterOne() {
        java.util.concurrent.atomic.AtomicReference<ToolBoundary> self = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicReference<RunContext> opened = new java.util.concurrent.atomic.AtomicReference<>();
        ToolBoundary boundary = ToolBoundary.builder()
                .store(InMemoryCanonicalInvocationStore.create())
                .accessPolicy(AccessPolicy.allowAll())
                .listener(ToolSpans.of(observations))
                .tool(ToolBinding.readOnly("log-search", FakeTools.returning(SECRET_RAW),
                        (request, raw) -> Projection.evidenceFound("2 rows")))
                .tool(ToolBinding.readOnly("triage", request -> ToolBoundary.agentText(
                        call(self.get(), opened.get(), "log-search", "inner-1")),
                        (request, raw) -> Projection.evidenceFound("triaged")))
                .build();
        self.set(boundary);
        opened.set(Fixtures.opened(boundary, run));

        assertThat(call(boundary, opened.get(), "triage", "outer-1").isRight()).isTrue();

        List<SpanData> spans = exporter.getFinishedSpanItems();
        SpanData outer = named(spans, "execute_tool triage");
        SpanData inner = named(spans, "execute_tool log-search");
        assertThat(inner.getParentSpanId()).isEqualTo(outer.getSpanId());
        assertThat(attribute(inner, "gen_ai.tool.call.id")).isEqualTo("inner-1");
        assertThat(attribute(outer, "gen_ai.tool.call.id")).isEqualTo("outer-1");
        assertThat(attribute(outer, "toolboundary.outcome")).isEqualTo("ready");
        assertThat(attribute(inner, "toolboundary.outcome")).isEqualTo("ready");
    }

    @Test
    void everyMeterTheModuleRegistersHasOnlyLowCardinalityTags() {
        BoundaryListener both = BoundaryListener.composite(MicrometerBoundaryListener.of(meters),
                ToolSpans.builder(observations).captureContent(true).build());
        ToolBoundary boundary = boundary(both);
        RunContext opened = Fixtures.opened(boundary, run);
        call(boundary, opened, "log-search", "call-6");
        call(boundary, opened, "log-search", "call-6");
        call(boundary, opened, "flaky", "call-7");
        call(boundary, opened, "nope", "call-8");

        List<Meter> registered = meters.getMeters();
        Set<String> names = registered.stream().map(meter -> meter.getId().getName()).collect(Collectors.toSet());
        assertThat(names).contains(MicrometerBoundaryListener.CALLS, MicrometerBoundaryListener.EXECUTION,
                MicrometerBoundaryListener.PROJECTION, DefaultToolCallObservationConvention.NAME);
        // Prometheus requires one set of tag keys per meter name.
        Map<String, Set<Set<String>>> keySets = registered.stream().collect(Collectors.groupingBy(
                meter -> meter.getId().getName(), Collectors.mapping(meter -> meter.getId().getTags().stream()
                        .map(Tag::getKey).collect(Collectors.toSet()), Collectors.toSet())));
        assertThat(keySets).allSatisfy((name, keys) -> assertThat(keys).as(name).hasSize(1));
        Set<String> perCall = Set.of(run.runId().value(), "call-6", "call-7", "call-8", ARGUMENTS);
        assertThat(registered).allSatisfy(meter -> {
            for (Tag tag : meter.getId().getTagsAsIterable()) {
                assertThat(tag.getKey()).as(meter.getId().toString())
                        .isNotIn("gen_ai.tool.call.id", "toolboundary.run.id", "gen_ai.tool.call.arguments",
                                "gen_ai.tool.call.result", "gen_ai.tool.description", "error.type");
                assertThat(tag.getValue()).as(meter.getId().toString()).isNotIn(perCall)
                        .doesNotContain("EVIDENCE_FOUND\n").doesNotContain("2 rows");
            }
        });
    }
}
