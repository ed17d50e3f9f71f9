package io.toolboundary.adapter.redis;

import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.InvocationStart;
import io.toolboundary.application.spi.RunOpening;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * Test data with defaults: records, starts and tokens, each test on its own run; a run is opened with
 * {@link #RUN_TOKEN} ({@link #openedRun}) before its first begin, as every start claims it.
 */
final class Records {

    static final Instant CREATED = Instant.parse("2030-01-02T03:04:05.123456789Z");
    static final Instant UPDATED = CREATED.plusMillis(250).plusNanos(7);
    static final Duration TTL = Duration.ofMinutes(10);
    static final Duration LEASE = Duration.ofMinutes(5);
    static final String TOOL = "search_logs";
    /** The token every helper start claims its run with, and {@link #openedRun} opens runs with. */
    static final RunToken RUN_TOKEN = new RunToken("redis-test-run");
    /** How long the runs the helpers open live: an hour, longer than any record of theirs. */
    static final Duration RUN_TTL = Duration.ofHours(1);

    private Records() {
    }

    /** A run id no other test uses, not opened. */
    static RunId newRun() {
        return new RunId("run-" + UUID.randomUUID());
    }

    /** A run id no other test uses, opened in {@code store} with {@link #RUN_TOKEN} for {@link #RUN_TTL}. */
    static RunId openedRun(CanonicalInvocationStore store) {
        RunId run = newRun();
        open(store, run);
        return run;
    }

    /** Opens {@code run} in {@code store} with {@link #RUN_TOKEN} for {@link #RUN_TTL}, asserting it was not held before. */
    static void open(CanonicalInvocationStore store, RunId run) {
        assertThat(store.openRun(new RunOpening(run, RUN_TOKEN, RUN_TTL), TIMEOUT)).as("open %s", run).isEqualTo(Either.right(RUN_TOKEN));
    }

    static InvocationKey key(RunId run, String toolCallId) {
        return InvocationKey.of(run, new ToolCallId(toolCallId));
    }

    static CanonicalRecord.Projecting projecting(InvocationKey key, String request) {
        return projecting(key, TOOL, request);
    }

    static CanonicalRecord.Projecting projecting(InvocationKey key, String tool, String request) {
        return new CanonicalRecord.Projecting(key, new ToolName(tool), request, "fp:" + request.hashCode(), CREATED);
    }

    static InvocationStart start(CanonicalRecord.Projecting record, AttemptToken token) {
        return new InvocationStart(record, token, RUN_TOKEN, TTL, LEASE, 1000, 1000, Long.MAX_VALUE);
    }

    static InvocationStart start(CanonicalRecord.Projecting record, AttemptToken token, int runBudget, int toolBudget) {
        return new InvocationStart(record, token, RUN_TOKEN, TTL, LEASE, runBudget, toolBudget, Long.MAX_VALUE);
    }

    static CanonicalRecord.Ready ready(CanonicalRecord.Projecting record, String raw, String content) {
        return ready(record, raw, new AgentResult(content, EvidenceStatus.EVIDENCE_FOUND, Option.none()));
    }

    static CanonicalRecord.Ready ready(CanonicalRecord.Projecting record, String raw, AgentResult result) {
        return record.ready(raw, result, UPDATED);
    }

    static CanonicalRecord.Failed failed(CanonicalRecord.Projecting record, ErrorCode code, Option<String> raw) {
        return record.failed(code, raw, UPDATED);
    }
}
