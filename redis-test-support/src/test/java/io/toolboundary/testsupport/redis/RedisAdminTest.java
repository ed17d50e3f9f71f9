package io.toolboundary.testsupport.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vavr.control.Option;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RedisAdminTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @Test
    void sendsNothingButTheTestsOwnCommands() {
        try (RedisServerProcess redis = RedisServerProcess.start();
                RedisAdmin admin = RedisAdmin.open(redis.endpoint(), TIMEOUT)) {
            admin.command("CONFIG", "RESETSTAT");
            try (RedisAdmin other = RedisAdmin.open(redis.endpoint(), TIMEOUT)) {
                assertThat(other.command("SET", "tbadmin:k", "v")).isEqualTo("OK");
            }

            String stats = admin.commandString("INFO", "commandstats");

            assertThat(stats).contains("cmdstat_set:calls=1,").doesNotContain("cmdstat_hello", "cmdstat_client");
            assertThat(admin.info("commandstats", "cmdstat_set")).startsWith("calls=1,");
            assertThat(admin.role()).isEqualTo("master");
            assertThat(admin.scan("tbadmin:*")).containsExactly("tbadmin:k");
        }
    }

    @Test
    void answersEveryReplyTypeAndKeepsErrorRepliesApart() {
        try (RedisServerProcess redis = RedisServerProcess.start();
                RedisAdmin admin = RedisAdmin.open(redis.endpoint(), TIMEOUT)) {
            assertThat(admin.command("RPUSH", "tbadmin:list", "a", "b")).isEqualTo(2L);
            assertThat(admin.command("LRANGE", "tbadmin:list", "0", "-1")).isEqualTo(List.of("a", "b"));
            assertThat(admin.command("GET", "tbadmin:none")).isEqualTo(RedisAdmin.Nil.NIL);
            assertThat(admin.commandLong("PTTL", "tbadmin:list")).isEqualTo(-1L);

            assertThatThrownBy(() -> admin.command("EVALSHA", "ffffffffffffffffffffffffffffffffffffffff", "0"))
                    .isInstanceOf(RedisErrorReply.class)
                    .extracting(error -> ((RedisErrorReply) error).kind()).isEqualTo("NOSCRIPT");
            assertThatThrownBy(() -> admin.command("NOSUCHCOMMAND"))
                    .isInstanceOf(RedisErrorReply.class)
                    .hasMessageStartingWith("ERR unknown command");
            assertThatThrownBy(() -> admin.commandString("INCR", "tbadmin:n")).isInstanceOf(IllegalStateException.class);
            assertThat(admin.command("PING")).as("the connection survives error replies").isEqualTo("PONG");
        }
    }

    @Test
    void authenticatesWithTheEndpointsPassword() {
        try (RedisServerProcess redis = RedisServerProcess.start()) {
            redis.call("CONFIG", "SET", "requirepass", "s3cret");
            RedisEndpoint withPassword = new RedisEndpoint(redis.endpoint().host(), redis.endpoint().port(),
                    Option.of("s3cret"));

            try (RedisAdmin admin = RedisAdmin.open(withPassword, TIMEOUT)) {
                assertThat(admin.command("PING")).isEqualTo("PONG");
            }
            try (RedisAdmin anonymous = RedisAdmin.open(redis.endpoint(), TIMEOUT)) {
                assertThatThrownBy(() -> anonymous.command("PING")).isInstanceOf(RedisErrorReply.class)
                        .extracting(error -> ((RedisErrorReply) error).kind()).isEqualTo("NOAUTH");
            }
            assertThatThrownBy(() -> RedisAdmin.open(new RedisEndpoint(redis.endpoint().host(), redis.endpoint().port(),
                    Option.of("wrong")), TIMEOUT)).isInstanceOf(RedisErrorReply.class);
        }
    }

    @Test
    void reportsAServerThatCannotBeReachedAsAnIoFailure() throws IOException {
        int closed;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = probe.getLocalPort();
        }
        RedisEndpoint nobody = RedisEndpoint.of("127.0.0.1", closed);

        assertThatThrownBy(() -> RedisAdmin.open(nobody, TIMEOUT)).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(nobody.toString());
    }
}
