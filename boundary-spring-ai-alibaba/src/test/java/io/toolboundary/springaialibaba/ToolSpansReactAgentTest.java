package io.toolboundary.springaialibaba;

import static io.toolboundary.springaialibaba.RedisAgentFixture.agent;
import static io.toolboundary.springaialibaba.ScriptedAgentModel.call;
import static org.assertj.core.api.Assertions.assertThat;

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
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.domain.RunId;
import io.toolboundary.micrometer.ToolSpans;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A Spring AI Alibaba {@code ReactAgent} over a scripted model, with the boundary's interceptor and boundary-micrometer's
 * {@link ToolSpans}, exported through micrometer-tracing's OpenTelemetry bridge: the GenAI tool span is a child of
 * the span the harness has open around the agent's call.
 */
class ToolSpansReactAgentTest {

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final SdkTracerProvider provider =
            SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
    private final OtelCurrentTraceContext current = new OtelCurrentTraceContext();
    private final ObservationRegistry observations = ObservationRegistry.create();
    private final OpsTools tools = new OpsTools();

    ToolSpansReactAgentTest() {
        OtelTracer tracer = new OtelTracer(provider.get("alibaba-test"), current, event -> {
        }, new OtelBaggageManager(current, List.of(), List.of()));
        observations.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer));
    }

    @AfterEach
    void shutDown() {
        provider.close();
    }

    @Test
    void theToolSpanIsAChildOfTheSpanAroundTheAgent() throws Exception {
        ToolBoundary boundary = ToolBoundary.builder().store(InMemoryCanonicalInvocationStore.create())
                .accessPolicy(AccessPolicy.allowOnly("log_query"))
                .listener(ToolSpans.of(observations))
                .tool(ReactAgentTools.readOnly("log_query", new ErrorLinesProjector()))
                .build();
        RunContext run = boundary.openRun(RunContext.active(new RunId("run-spans"), Instant.now().plusSeconds(600), 50))
                .get();
        ScriptedAgentModel model = ScriptedAgentModel.turns(List.of(call("call_1", "log_query",
                "{\"service\":\"checkout\"}")));
        var agent = agent(model, tools, BoundaryToolInterceptor.of(boundary)).build();

        Observation.createNotStarted("aiops.turn", observations).observeChecked(() -> agent.call("logs?",
                BoundaryRunnableConfig.of(run)));

        assertThat(tools.logQueries).hasValue(1);
        List<SpanData> spans = exporter.getFinishedSpanItems();
        SpanData turn = named(spans, "aiops.turn");
        SpanData tool = named(spans, "execute_tool log_query");
        assertThat(tool.getKind()).isEqualTo(SpanKind.INTERNAL);
        assertThat(tool.getParentSpanId()).isEqualTo(turn.getSpanId());
        assertThat(tool.getStatus().getStatusCode()).isNotEqualTo(StatusCode.ERROR);
        assertThat(tool.getAttributes().get(AttributeKey.stringKey("gen_ai.tool.call.id"))).isEqualTo("call_1");
        assertThat(tool.getAttributes().get(AttributeKey.stringKey("toolboundary.run.id"))).isEqualTo("run-spans");
        assertThat(tool.getAttributes().get(AttributeKey.stringKey("toolboundary.outcome"))).isEqualTo("ready");
    }

    private static SpanData named(List<SpanData> spans, String name) {
        return spans.stream().filter(span -> span.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no span " + name + " in " + spans));
    }
}
