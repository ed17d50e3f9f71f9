package com.example.harness;

import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.domain.RunId;
import java.time.Duration;
import java.time.Instant;

/** A harness on the in-memory store: one tool, one run, the calls an agent framework produced. */
public final class FirstHarness {

    public static void main(String[] args) {
        ToolBoundary boundary = ToolBoundary.builder()
                .store(InMemoryCanonicalInvocationStore.create())
                .accessPolicy(AccessPolicy.allowOnly("log-search")) // the harness decides, never the agent
                .tool(ToolBinding.readOnly("log-search", LogSearch::run, new LogSearchProjector()))
                .build();
        play(boundary, "triage-42");
    }

    /** One run of three calls; prints what the model is given for each. */
    static void play(ToolBoundary boundary, String runId) {
        RunContext run = boundary.openRun(RunContext.active(new RunId(runId),
                        Instant.now().plus(Duration.ofMinutes(10)), 20))
                .getOrElseThrow(error -> new IllegalStateException(error.message()));

        for (ToolCallEnvelope call : new ToolCallEnvelope[] {
                ToolCallEnvelope.of(runId, "call_1", "log-search", "{\"service\":\"payments\"}"),
                ToolCallEnvelope.of(runId, "call_2", "log-search", "{\"service\":\"search\"}"),
                ToolCallEnvelope.of(runId, "call_1", "log-search", "{\"service\":\"payments\"}")}) {
            System.out.println(ToolBoundary.agentText(boundary.invoke(run, call)));
        }
    }
}
