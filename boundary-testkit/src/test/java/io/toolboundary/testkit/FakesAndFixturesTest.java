package io.toolboundary.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toolboundary.application.Projector;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.ToolRequest;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.Projection;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The fakes and fixtures do what their names say. */
class FakesAndFixturesTest {

    private final ToolRequest request = ProjectorContract.sampleRequest("log-search", Fixtures.DEFAULT_ARGUMENTS);

    @Test
    void textOfUtf8BytesHasExactlyThatManyBytes() {
        for (int bytes : new int[] {0, 1, 2, 7, 8192, 8193}) {
            String text = Fixtures.textOfUtf8Bytes(bytes);
            assertThat(text.getBytes(StandardCharsets.UTF_8)).hasSize(bytes);
            assertThat(Projector.utf8Length(text)).isEqualTo(bytes);
        }
        assertThat(Fixtures.textOfUtf8Bytes(100)).hasSizeLessThan(100);
    }

    @Test
    void anyRunContextIsFreshActiveAndUnlimited() {
        RunContext first = Fixtures.anyRunContext();
        RunContext second = Fixtures.anyRunContext();

        assertThat(first.runId()).isNotEqualTo(second.runId());
        assertThat(first.active()).isTrue();
        assertThat(first.deadline()).isEqualTo(Fixtures.FAR_FUTURE);
        assertThat(first.callBudget()).isEqualTo(RunContext.UNLIMITED);
        assertThat(Fixtures.runContext("run-7").runId().value()).isEqualTo("run-7");
    }

    @Test
    void envelopeHasDefaultsAndAFreshToolCallIdPerBuilder() {
        RunContext run = Fixtures.anyRunContext();

        ToolCallEnvelope first = Fixtures.envelope(run).build();
        ToolCallEnvelope second = Fixtures.envelope(run).build();

        assertThat(first.runId()).isEqualTo(run.runId().value());
        assertThat(first.toolName()).isEqualTo("log-search");
        assertThat(first.arguments()).isEqualTo("{\"query\":\"timeout\"}");
        assertThat(first.toolCallId()).isNotEqualTo(second.toolCallId());
    }

    @Test
    void envelopeBuilderReplacesEachFieldAndKeepsTheOthers() {
        Fixtures.EnvelopeBuilder base = Fixtures.envelope().withRunId("r1").withToolCallId("c1");

        ToolCallEnvelope changed = base.withToolName("sql-query").withArguments("{}").build();

        assertThat(changed).isEqualTo(ToolCallEnvelope.of("r1", "c1", "sql-query", "{}"));
        assertThat(base.build().toolName()).isEqualTo("log-search");
    }

    @Test
    void fakeToolsAnswerThrowAndOversize() throws Exception {
        assertThat(FakeTools.returning("raw").execute(request)).isEqualTo("raw");
        assertThat(Projector.utf8Length(FakeTools.returningBytes(1025).execute(request))).isEqualTo(1025);
        assertThatThrownBy(() -> FakeTools.throwing("MARKER").execute(request)).hasMessage("MARKER");
        Exception failure = new IOException("io");
        assertThatThrownBy(() -> FakeTools.throwing(failure).execute(request)).isSameAs(failure);
    }

    @Test
    void fakeProjectorsReturnWhatTheyPromise() throws Exception {
        assertThat(FakeProjectors.evidenceFound("c").project(request, "raw")).isEqualTo(Projection.evidenceFound("c"));
        assertThat(FakeProjectors.noEvidence("c", "s").project(request, "raw")).isEqualTo(Projection.noEvidence("c", "s"));
        assertThat(FakeProjectors.invalidEvidenceStatus().project(request, "raw").evidence()).isEqualTo(EvidenceStatus.ERROR);
        assertThat(FakeProjectors.noEvidenceWithBlankScope().project(request, "raw").scope().get()).isBlank();
        assertThat(Projector.utf8Length(FakeProjectors.returningBytes(9000).project(request, "raw").content())).isEqualTo(9000);
        assertThat(FakeProjectors.returningNull().project(request, "raw")).isNull();
        assertThat(FakeProjectors.echoingRaw().project(request, "raw").content()).isEqualTo("raw");
        assertThatThrownBy(() -> FakeProjectors.throwing("MARKER").project(request, "raw")).hasMessage("MARKER");
    }

    @Test
    void countingProjectorCountsEveryCallEvenWhenItThrows() {
        CountingProjector projector = FakeProjectors.counting(FakeProjectors.throwing("x"));

        assertThatThrownBy(() -> projector.project(request, "raw")).isInstanceOf(IllegalStateException.class);

        assertThat(projector.projections()).isEqualTo(1);
    }

    @Test
    void countingExecutorCountsExactlyUnderConcurrency() throws Exception {
        CountingExecutor executor = FakeTools.counting(FakeTools.returning("raw"));
        int threads = 8;
        int callsPerThread = 2_000;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Void>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Callable<Void> worker = () -> {
                    start.await();
                    for (int i = 0; i < callsPerThread; i++) {
                        executor.execute(request);
                    }
                    return null;
                };
                done.add(pool.submit(worker));
            }
            start.countDown();
            for (Future<Void> future : done) {
                future.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(executor.executions()).isEqualTo(threads * callsPerThread);
    }
}
