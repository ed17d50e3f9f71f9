package io.toolboundary.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.domain.RunId;
import io.toolboundary.export.AuditFailure;
import io.toolboundary.export.RecordExporter;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.MutableClock;
import io.vavr.control.Either;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class ExportMetersTest {

    private final MutableClock clock = MutableClock.at(Instant.parse("2026-12-07T10:00:00Z"));
    private final InMemoryCanonicalInvocationStore store =
            InMemoryCanonicalInvocationStore.custom().clock(clock).outbox(1_000).build();
    private final AtomicBoolean down = new AtomicBoolean();
    private final RecordExporter exporter = RecordExporter.builder(store, records -> down.get()
                    ? Either.left(new AuditFailure(AuditFailure.Kind.UNAVAILABLE, "connect: SQLSTATE 08001"))
                    : Either.right(records.size()))
            .clock(clock).build();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private void calls(String runId, int count) {
        ToolBoundary boundary = ToolBoundary.builder().store(store).clock(clock)
                .accessPolicy(AccessPolicy.allowOnly("logs"))
                .tool(ToolBinding.readOnly("logs", request -> "raw", FakeProjectors.evidenceFound("shown")))
                .build();
        RunContext run = boundary.openRun(RunContext.active(new RunId(runId), Instant.parse("9999-01-01T00:00:00Z"),
                RunContext.UNLIMITED)).get();
        for (int i = 0; i < count; i++) {
            boundary.invoke(run, ToolCallEnvelope.of(runId, "c" + i, "logs", "{}"));
        }
    }

    @Test
    void countsLagAndBacklogFollowTheExporter() {
        ExportMeters.of(exporter).bindTo(registry);
        calls("run-1", 3);
        down.set(true);
        exporter.exportOnce();
        clock.advance(Duration.ofSeconds(90));

        assertThat(registry.get("toolboundary.export.failures").functionCounter().count()).isEqualTo(1);
        assertThat(registry.get("toolboundary.export.backlog").gauge().value()).isEqualTo(3);
        assertThat(registry.get("toolboundary.export.lag").timeGauge().value(TimeUnit.SECONDS)).isEqualTo(90);

        down.set(false);
        exporter.exportOnce();
        assertThat(registry.get("toolboundary.export.records").tag("result", "exported").functionCounter().count())
                .isEqualTo(3);
        assertThat(registry.get("toolboundary.export.backlog").gauge().value()).isZero();
        assertThat(registry.get("toolboundary.export.lag").timeGauge().value(TimeUnit.SECONDS)).isZero();

        calls("run-2", 2);
        clock.advance(Duration.ofHours(25));
        exporter.exportOnce();
        assertThat(registry.get("toolboundary.export.records").tag("result", "lost").functionCounter().count())
                .isEqualTo(2);
        assertThat(registry.get("toolboundary.export.outbox.lost").gauge().value()).isEqualTo(2);
    }

    @Test
    void noMeterCarriesARunOrACallId() {
        ExportMeters.of(exporter).bindTo(registry);
        for (Meter meter : registry.getMeters()) {
            assertThat(meter.getId().getTags()).allSatisfy(tag -> assertThat(tag.getKey()).isEqualTo("result"));
        }
        assertThat(registry.getMeters()).hasSize(6);
    }
}
