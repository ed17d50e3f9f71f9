package io.toolboundary.springai;

import static io.toolboundary.springai.ScriptedChatModel.call;
import static io.toolboundary.springai.ScriptedChatModel.requesting;
import static io.toolboundary.springai.ScriptedChatModel.saying;
import static org.assertj.core.api.Assertions.assertThat;

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
import io.toolboundary.domain.Projection;
import io.toolboundary.micrometer.ToolSpans;
import io.toolboundary.testkit.Fixtures;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;

/**
 * Spring AI's ChatClient (on each line: 1.1 and 2.0) over a scripted model, the boundary's tool calling manager
 * and boundary-micrometer's {@link ToolSpans}, exported through micrometer-tracing's OpenTelemetry bridge: the
 * GenAI tool span sits inside Spring AI's own tool observation span.
 */
class ToolSpansChatClientTest {

    private static final String ARGUMENTS = "{\"query\":\"timeout\"}";

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final SdkTracerProvider provider =
            SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
    private final OtelCurrentTraceContext current = new OtelCurrentTraceContext();
    private final ObservationRegistry observations = ObservationRegistry.create();
    private final LogSearchCallback logSearch = new LogSearchCallback();
    private final RunContext run = Fixtures.anyRunContext();

    ToolSpansChatClientTest() {
        OtelTracer tracer = new OtelTracer(provider.get("spring-ai-test"), current, event -> {
        }, new OtelBaggageManager(current, List.of(), List.of()));
        observations.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer));
    }

    @AfterEach
    void shutDown() {
        provider.close();
    }

    @Test
    void theToolSpanIsADescendantOfSpringAisToolSpan() {
        ToolBoundary boundary = ToolBoundary.builder()
                .store(InMemoryCanonicalInvocationStore.create())
                .accessPolicy(AccessPolicy.allowAll())
                .listener(ToolSpans.of(observations))
                .tool(ToolCallbackBindings.readOnly(logSearch, (request, raw) -> Projection.evidenceFound("3 timeouts")))
                .build();
        ScriptedChatModel model = ScriptedChatModel.answering(
                requesting(call("call_A1", LogSearchCallback.NAME, ARGUMENTS)), saying("Checkout timed out."));
        ChatClient client = ChatClient.builder(model)
                .defaultAdvisors(LineApi.toolCallingAdvisor(BoundaryToolCallingManager.builder(boundary)
                        .observationRegistry(observations).build()))
                .build();

        String answer = LineApi.tools(client.prompt().user("What failed in checkout?"), logSearch)
                .toolContext(BoundaryToolContext.of(Fixtures.opened(boundary, run)))
                .call()
                .content();

        assertThat(answer).isEqualTo("Checkout timed out.");
        List<SpanData> spans = exporter.getFinishedSpanItems();
        SpanData tool = spans.stream().filter(span -> span.getName().equals("execute_tool " + LogSearchCallback.NAME))
                .findFirst().orElseThrow(() -> new AssertionError("no tool span in " + spans));
        assertThat(tool.getKind()).isEqualTo(SpanKind.INTERNAL);
        assertThat(tool.getStatus().getStatusCode()).isNotEqualTo(StatusCode.ERROR);
        assertThat(tool.getAttributes().get(AttributeKey.stringKey("gen_ai.operation.name"))).isEqualTo("execute_tool");
        assertThat(tool.getAttributes().get(AttributeKey.stringKey("gen_ai.tool.call.id"))).isEqualTo("call_A1");
        assertThat(tool.getAttributes().get(AttributeKey.stringKey("toolboundary.evidence"))).isEqualTo("EVIDENCE_FOUND");
        // Its parent is the boundary's deprecated toolboundary.call observation, whose parent is Spring AI's tool span.
        SpanData alias = parentOf(tool, spans);
        assertThat(alias.getName()).isEqualTo("tool boundary " + LogSearchCallback.NAME);
        SpanData springAi = parentOf(alias, spans);
        assertThat(springAi.getName()).contains(LogSearchCallback.NAME).isNotEqualTo(alias.getName());
        assertThat(springAi.getAttributes().get(AttributeKey.stringKey("spring.ai.kind"))).isEqualTo("tool_call");
        assertThat(tool.getTraceId()).isEqualTo(springAi.getTraceId());
    }

    private static SpanData parentOf(SpanData child, List<SpanData> spans) {
        return spans.stream().filter(span -> span.getSpanId().equals(child.getParentSpanId())).findFirst()
                .orElseThrow(() -> new AssertionError("no parent of " + child.getName() + " in " + spans));
    }
}
