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
import io.toolboundary.citations.CitationCheck;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class CitationMetersTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ToolBoundary boundary = ToolBoundary.builder()
            .store(InMemoryCanonicalInvocationStore.create())
            .accessPolicy(AccessPolicy.allowAll())
            .tool(ToolBinding.readOnly("logs", FakeTools.returning("raw"), FakeProjectors.evidenceFound("found")))
            .tool(ToolBinding.readOnly("broken", FakeTools.throwing("down"), FakeProjectors.evidenceFound("never")))
            .build();
    private final CitationCheck check = CitationCheck.builder(boundary).listener(CitationMeters.of(registry)).build();
    private final RunContext run = Fixtures.opened(boundary, Fixtures.runContext("run-1"));

    @Test
    void countsEachCitationByVerdictAndEachAnswerByWhetherItIsGrounded() {
        boundary.invoke(run, ToolCallEnvelope.of("run-1", "call_1", "logs", "{}"));
        boundary.invoke(run, ToolCallEnvelope.of("run-1", "call_2", "broken", "{}"));

        check.check(run.runId(), "[evidence: call_1]", List.of());
        check.check(run.runId(), "[evidence: call_1] [evidence: call_2] [not found: call_1]", List.of());
        check.check(run.runId(), "no citation", List.of(InvocationKey.of(run.runId(), new ToolCallId("call_1"))));

        assertThat(count("toolboundary.citations", "verdict", "accepted")).isEqualTo(2);
        assertThat(count("toolboundary.citations", "verdict", "not_referencable")).isEqualTo(1);
        assertThat(count("toolboundary.citations", "verdict", "evidence_as_not_found")).isEqualTo(1);
        assertThat(count("toolboundary.citations", "verdict", "other_run")).isZero();
        assertThat(registry.get("toolboundary.answers").tag("grounded", "true").counter().count()).isEqualTo(1);
        assertThat(registry.get("toolboundary.answers").tag("grounded", "false").tag("uncited", "false").counter()
                .count()).isEqualTo(1);
        assertThat(registry.get("toolboundary.answers").tag("uncited", "true").counter().count()).isEqualTo(1);
    }

    @Test
    void noMeterCarriesAnIdOrText() {
        Set<String> tagKeys = registry.getMeters().stream().flatMap(meter -> meter.getId().getTags().stream())
                .map(tag -> tag.getKey()).collect(Collectors.toSet());

        assertThat(tagKeys).containsExactlyInAnyOrder("verdict", "grounded", "uncited");
        assertThat(registry.getMeters().stream().map(Meter::getId).map(Meter.Id::getName).distinct())
                .containsExactlyInAnyOrder("toolboundary.citations", "toolboundary.answers");
    }

    private double count(String name, String tag, String value) {
        return registry.get(name).tag(tag, value).counter().count();
    }
}
