package io.toolboundary.cli;

import io.toolboundary.adapter.redis.RedisOperatorView;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.application.spi.ToolCallIdPage;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.vavr.control.Either;
import io.vavr.control.Option;

/** Checked ids and the store reads the commands share; a store failure is Redis unreachable (exit 2). */
final class Ids {

    /** The longest a listing of a run's records may take: it walks the whole keyspace of the run's master. */
    private static final java.time.Duration LISTING_TIMEOUT = java.time.Duration.ofSeconds(30);

    private Ids() {
    }

    static RunId run(String value) {
        return RunId.of(value).getOrElseThrow(
                invalid -> new IllegalArgumentException("RUN is not a valid run id"));
    }

    static ToolCallId call(String value) {
        return ToolCallId.of(value).getOrElseThrow(invalid -> new IllegalArgumentException("ID is not a valid tool_call_id"));
    }

    static ToolCallIdPage page(Connection.Opened opened, RunId runId, Option<ToolCallId> after, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("--limit must be at least 1");
        }
        Either<StoreFailure, ToolCallIdPage> page =
                opened.store().toolCallIds(new ToolCallIdPage.Request(runId, after, limit), LISTING_TIMEOUT);
        return page.getOrElseThrow(failed -> new Connection.UnreachableException(
                "Redis did not list the run's records (" + failed.code() + ")"));
    }

    static RedisOperatorView.KeyFacts facts(Connection.Opened opened, RunId runId, ToolCallId id) {
        return opened.view().inspect(opened.view().recordKey(runId, id)).getOrElseThrow(
                failed -> new Connection.UnreachableException("Redis did not answer (" + failed.code() + ")"));
    }
}
