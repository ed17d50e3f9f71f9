package io.toolboundary.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import org.junit.jupiter.api.Test;

/** The Redis harness measures what it claims: the boundary's commands sent alone make calls, the peer is checked. */
class BenchRedisTest {

    @Test
    void theBoundarysCapturedCommandsMakeNewCallsAndAreTimedByTheServer() throws Exception {
        try (BenchRedis redis = BenchRedis.start()) {
            redis.flush();
            ToolBoundary boundary = redis.boundary(FakeTools.returning(Payloads.raw(1024)));
            RunContext run = Fixtures.opened(boundary, Fixtures.runContext("bench-test"));
            StoreCommands commands = redis.captureCommands(boundary, run, Payloads.request(Payloads.REDIS_REQUEST_BYTES));

            redis.resetCommandStats();
            commands.call("again1");
            commands.call("again2");

            assertThat(redis.commandMicros()).isPositive();
            assertThat(redis.deployment().callLong("EXISTS", "toolboundary:{bench-test}:call:again2")).isEqualTo(1);
            assertThatThrownBy(() -> commands.call("again1")).isInstanceOf(IllegalStateException.class);
            assertThat(redis.peer(FakeTools.returning(Payloads.raw(1024)))).isNotNull();
            assertThat(redis.cpuSeconds()).isPositive();
            assertThat(redis.outboxLength()).isZero();
        }
    }

    @Test
    void withExportOnEachCallAndEachReplayedCallAppendsOneOutboxEntryAndTheFlushDeletesThem() {
        try (BenchRedis redis = BenchRedis.start()) {
            redis.flush();
            ToolBoundary boundary = redis.exportingBoundary(FakeTools.returning(Payloads.raw(1024)));
            RunContext run = Fixtures.opened(boundary, Fixtures.runContext("bench-export-test"));
            StoreCommands commands = redis.captureCommands(boundary, run, Payloads.request(Payloads.REDIS_REQUEST_BYTES));

            assertThat(commands.sent()).extracting(command -> command.get(0).toUpperCase())
                    .containsExactly("EVALSHA", "SET", "EVALSHA");
            assertThat(commands.sent().get(2)).contains(BenchRedis.OUTBOX);
            assertThat(redis.outboxLength()).isEqualTo(1);
            commands.call("again1");
            assertThat(redis.outboxLength()).isEqualTo(2);

            redis.flush();
            assertThat(redis.outboxLength()).isZero();
        }
    }
}
