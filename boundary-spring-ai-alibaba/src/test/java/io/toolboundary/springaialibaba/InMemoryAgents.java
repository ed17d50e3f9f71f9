package io.toolboundary.springaialibaba;

import com.alibaba.cloud.ai.graph.RunnableConfig;
import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import java.time.Instant;
import java.util.UUID;

/** A boundary on the in-memory store with the log tool, and an opened run of it, for the cases that need no Redis. */
final class InMemoryAgents {

    final ToolBoundary boundary = ToolBoundary.builder().store(InMemoryCanonicalInvocationStore.create())
            .accessPolicy(AccessPolicy.allowOnly("log_query"))
            .tool(ReactAgentTools.readOnly("log_query", new ErrorLinesProjector()))
            .build();
    final RunContext run = boundary.openRun(RunContext.active(new RunId("run-" + UUID.randomUUID()),
            Instant.now().plusSeconds(600), 50)).get();

    RunnableConfig config() {
        return BoundaryRunnableConfig.of(run);
    }

    CanonicalRecord record(String toolCallId) {
        return boundary.find(run.runId(), new ToolCallId(toolCallId)).get()
                .getOrElseThrow(() -> new AssertionError("no record of " + toolCallId));
    }
}
