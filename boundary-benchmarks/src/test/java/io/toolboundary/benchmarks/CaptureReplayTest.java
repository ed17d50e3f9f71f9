package io.toolboundary.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.testsupport.redis.RedisEndpoint;
import io.toolboundary.testsupport.redis.RedisServerFixture;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Capture and replay know nothing of the store's command shape: a call made of a script, then a
 * transaction holding a plain SET and a second script, is captured without its brackets and replayed
 * command by command, each on ids for which the commands before it ran.
 */
class CaptureReplayTest {

    private static final String BEGIN = "if redis.call('EXISTS', KEYS[1]) == 1 then return {'DUPLICATE'} end "
            + "redis.call('HSET', KEYS[1], 'status', 'PROJECTING', 'token', ARGV[1]) "
            + "redis.call('SET', KEYS[2], '', 'PX', 60000) return {'CREATED', 1}";
    private static final String COMPLETE = "if redis.call('HGET', KEYS[1], 'status') ~= 'PROJECTING' then "
            + "return {'CONFLICT'} end redis.call('HSET', KEYS[1], 'status', 'READY') return {'APPLIED'}";

    @Test
    void capturesACallWithATransactionAndReplaysEachCommand() {
        RedisEndpoint endpoint = RedisServerFixture.standalone().nodes().get(0);
        try (Resp client = Resp.connect(endpoint); Resp admin = Resp.connect(endpoint)) {
            admin.call("FLUSHALL");
            String begin = admin.text("SCRIPT", "LOAD", BEGIN);
            String complete = admin.text("SCRIPT", "LOAD", COMPLETE);
            admin.call("SET", "t:{run}:state", "open");
            CallCapture.Snapshot opened = CallCapture.Snapshot.take(admin);

            CallCapture.Captured call = CallCapture.capture(endpoint, () -> call(client, begin, complete, "thecall"));

            assertThat(call.skipped()).containsExactly("MULTI", "EXEC");
            assertThat(call.commands()).extracting(command -> command.get(0).toUpperCase())
                    .containsExactly("EVALSHA", "SET", "EVALSHA");
            Replay replay = new Replay(endpoint, admin, opened, call, "thecall",
                    id -> "READY".equals(Resp.text(admin.call("HGET", "t:{run}:rec:" + id, "status")))
                            && "raw bytes".equals(Resp.text(admin.call("GET", "t:{run}:raw:" + id))));
            assertThat(replay.templates().get(1)).contains("t:{run}:raw:c__rand_int__");
            for (int k = 0; k < 3; k++) {
                Replay.Measured measured = replay.measure(k, 1, 300);
                assertThat(measured.requests()).isGreaterThanOrEqualTo(200);
                assertThat(measured.rps()).isPositive();
                assertThat(measured.usecPerCall()).isPositive();
            }
            assertThat(replay.measure(2, 1, 300).innerUsecPerRequest()).containsKeys("hget", "hset");
            admin.call("FLUSHALL");
        }
    }

    private static void call(Resp client, String begin, String complete, String id) {
        client.call("EVALSHA", begin, "2", "t:{run}:rec:" + id, "t:{run}:raw:" + id, "token-1");
        client.send(List.of(bytes("MULTI")));
        client.send(List.of(bytes("SET"), bytes("t:{run}:raw:" + id), bytes("raw bytes"), bytes("XX"), bytes("KEEPTTL")));
        client.send(List.of(bytes("EVALSHA"), bytes(complete), bytes("1"), bytes("t:{run}:rec:" + id)));
        client.send(List.of(bytes("EXEC")));
        client.flush();
        for (int i = 0; i < 4; i++) {
            client.read();
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
