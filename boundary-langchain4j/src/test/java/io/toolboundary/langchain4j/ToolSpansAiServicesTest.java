package io.toolboundary.langchain4j;

import static io.toolboundary.langchain4j.ScriptedChatModel.answers;
import static io.toolboundary.langchain4j.ScriptedChatModel.callsTools;
import static io.toolboundary.langchain4j.ScriptedChatModel.toolCall;
import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.service.AiServices;
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
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.domain.Projection;
import io.toolboundary.micrometer.ToolSpans;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A LangChain4j {@link AiServices} agent over a scripted model whose tool calls go through a boundary with
 * boundary-micrometer's {@link ToolSpans}, exported through micrometer-tracing's OpenTelemetry bridge: one
 * GenAI tool span per call, children of the span the harness has open around the agent.
 */
class ToolSpansAiServicesTest {

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final SdkTracerProvider provider =
            SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
    private final OtelCurrentTraceContext current = new OtelCurrentTraceContext();
    private final ObservationRegistry observations = ObservationRegistry.create();

    ToolSpansAiServicesTest() {
        OtelTracer tracer = new OtelTracer(provider.get("langchain4j-test"), current, event -> {
        }, new OtelBaggageManager(current, List.of(), List.of()));
        observations.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer));
    }

    @AfterEach
    void shutDown() {
        provider.close();
    }

    @Test
    void eachToolCallIsAnExecuteToolSpanUnderTheHarnesssSpan() {
        ToolBoundary boundary = ToolBoundary.builder()
                .store(InMemoryCanonicalInvocationStore.create())
                .accessPolicy(AccessPolicy.allowAll())
                .listener(ToolSpans.builder(observations)
                        .descriptions(Map.of("log-search", "A read-only tool called log-search")).build())
                .tool(ToolBinding.readOnly("log-search", FakeTools.returning("raw rows"),
                        (request, raw) -> Projection.evidenceFound("2 timeouts in checkout", "logs 10:00-10:15")))
                .tool(ToolBinding.readOnly("flaky", FakeTools.throwing("secret"), FakeProjectors.evidenceFound("never")))
                .build();
        RunContext run = Fixtures.opened(boundary, Fixtures.anyRunContext());
        ScriptedChatModel model = ScriptedChatModel.replying(
                callsTools(toolCall("call_Lk3v9", "log-search", LangChain4jToolBoundaryTest.SEARCH_ARGS),
                        toolCall("call_F1", "flaky", LangChain4jToolBoundaryTest.SEARCH_ARGS)),
                answers("Two checkout timeouts."));
        LangChain4jToolBoundary tools = LangChain4jToolBoundary.of(boundary, () -> run,
                List.of(LangChain4jToolBoundaryTest.spec("log-search"), LangChain4jToolBoundaryTest.spec("flaky")));
        LangChain4jToolBoundaryTest.Agent agent =
                tools.applyTo(AiServices.builder(LangChain4jToolBoundaryTest.Agent.class).chatModel(model)).build();

        String reply = Observation.createNotStarted("triage.turn", observations)
                .observe(() -> agent.chat("Why did checkout fail?"));

        assertThat(reply).isEqualTo("Two checkout timeouts.");
        List<SpanData> spans = exporter.getFinishedSpanItems();
        SpanData turn = named(spans, "triage.turn");
        SpanData found = named(spans, "execute_tool log-search");
        SpanData failed = named(spans, "execute_tool flaky");
        assertThat(List.of(found, failed)).allSatisfy(span -> {
            assertThat(span.getKind()).isEqualTo(SpanKind.INTERNAL);
            assertThat(span.getParentSpanId()).isEqualTo(turn.getSpanId());
            assertThat(span.getTraceId()).isEqualTo(turn.getTraceId());
            assertThat(span.getAttributes().get(AttributeKey.stringKey("gen_ai.operation.name"))).isEqualTo("execute_tool");
            assertThat(span.getAttributes().get(AttributeKey.stringKey("gen_ai.tool.type"))).isEqualTo("function");
        });
        assertThat(found.getAttributes().get(AttributeKey.stringKey("gen_ai.tool.call.id"))).isEqualTo("call_Lk3v9");
        assertThat(found.getAttributes().get(AttributeKey.stringKey("gen_ai.tool.description")))
                .isEqualTo("A read-only tool called log-search");
        assertThat(found.getStatus().getStatusCode()).isNotEqualTo(StatusCode.ERROR);
        assertThat(failed.getAttributes().get(AttributeKey.stringKey("gen_ai.tool.call.id"))).isEqualTo("call_F1");
        assertThat(failed.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(failed.getAttributes().get(AttributeKey.stringKey("error.type"))).isEqualTo("EXECUTION_FAILED");
    }

    private static SpanData named(List<SpanData> spans, String name) {
        return spans.stream().filter(span -> span.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no span " + name + " in " + spans));
    }
}
