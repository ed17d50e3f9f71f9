package io.toolboundary.testsupport.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class RedisServerProcessTest {

    @Test
    void restartsEmptyOnTheSamePortAfterAKill() {
        try (RedisServerProcess redis = RedisServerProcess.start()) {
            int port = redis.endpoint().port();
            redis.call("SET", "tbprocess:a", "1");
            assertThat(redis.keys("tbprocess:*")).containsExactly("tbprocess:a");

            redis.kill();
            assertThat(redis.isAlive()).isFalse();
            assertThatThrownBy(() -> redis.call("PING")).isInstanceOf(UncheckedIOException.class);

            redis.restart();
            assertThat(redis.endpoint().port()).isEqualTo(port);
            assertThat(redis.call("PING")).isEqualTo("PONG");
            assertThat(redis.keys("tbprocess:*")).isEmpty();
        }
    }

    @Test
    void losesEveryWriteOnARestartWithoutPersistenceAndKeepsThemWithAof() {
        try (RedisServerProcess plain = RedisServerProcess.start();
                RedisServerProcess aof = RedisServerProcess.start(RedisServerProcess.Persistence.AOF)) {
            assertThat(plain.persistence()).isEqualTo(RedisServerProcess.Persistence.NONE);
            assertThat(plain.call("CONFIG", "GET", "appendonly")).isEqualTo(List.of("appendonly", "no"));
            assertThat(plain.call("CONFIG", "GET", "save")).isEqualTo(List.of("save", ""));
            assertThat(aof.call("CONFIG", "GET", "appendfsync")).isEqualTo(List.of("appendfsync", "always"));
            for (RedisServerProcess redis : List.of(plain, aof)) {
                redis.call("SET", "tbprocess:kept", "v", "PX", "600000");
                redis.call("HSET", "tbprocess:hash", "status", "READY");
                redis.kill();
                redis.restart();
            }

            assertThat(plain.call("DBSIZE")).isEqualTo(0L);
            assertThat(plain.call("GET", "tbprocess:kept")).isEqualTo(RedisAdmin.Nil.NIL);
            assertThat(aof.call("DBSIZE")).isEqualTo(2L);
            assertThat(aof.call("GET", "tbprocess:kept")).isEqualTo("v");
            assertThat(aof.callLong("PTTL", "tbprocess:kept")).as("the TTL survives too").isPositive();
            assertThat(aof.call("HGET", "tbprocess:hash", "status")).isEqualTo("READY");

            aof.restart();
            assertThat(aof.call("DBSIZE")).as("a second restart replays the same file").isEqualTo(2L);
        }
    }

    @Test
    void answersNothingWhileFrozenAndServesTheWaitingCommandOnceThawed() {
        try (RedisServerProcess redis = RedisServerProcess.start();
                RedisAdmin client = RedisAdmin.open(redis.endpoint(), Duration.ofSeconds(10))) {
            redis.freeze();
            assertThat(redis.isFrozen()).isTrue();
            CompletableFuture<Object> waiting = CompletableFuture.supplyAsync(() -> client.command("INCR", "tbprocess:n"));
            LocalRedisProcesses.awaitTrue(() -> redis.connectionsWithUnreadInput() == 1, Duration.ofSeconds(10),
                    "the INCR to wait in the frozen server's socket");
            assertThat(waiting).isNotDone();

            redis.thaw();

            assertThat(waiting.join()).isEqualTo(1L);
            assertThat(redis.connectionsWithUnreadInput()).isZero();
        }
    }

    @Test
    void killsAFrozenServerOnClose() {
        RedisServerProcess redis = RedisServerProcess.start();
        redis.freeze();

        redis.close();

        assertThat(redis.isAlive()).isFalse();
        assertThat(LocalRedisProcesses.answersPing(redis.endpoint())).isFalse();
    }
}
