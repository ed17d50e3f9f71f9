package io.toolboundary.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.testsupport.redis.RedisEndpoint;
import io.toolboundary.testsupport.redis.RedisServerFixture;
import java.util.List;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Protocol;

class CallCaptureTest {

    @Test
    void readsTheArgumentsOfAMonitorLine() {
        String line = " \"EVALSHA\" \"ab12\" \"1\" \"k{r}:call:x\" \"va\\\"l\\nue\\x01\\\\\" \"\" \"\\xc3\\xa9\"";

        assertThat(CallCapture.parse(line)).containsExactly("EVALSHA", "ab12", "1", "k{r}:call:x", "va\"l\nue\u0001\\", "",
                "é");
    }

    @Test
    void capturesACallsOwnCommandsWithoutTheScriptsInnerOnesOrTheTransactionBrackets() {
        RedisEndpoint endpoint = RedisServerFixture.standalone().nodes().get(0);
        try (Connection client = new Connection(new HostAndPort(endpoint.host(), endpoint.port()))) {
            List<List<String>> sent = CallCapture.capture(endpoint, () -> {
                client.executeCommand(Protocol.Command.MULTI);
                client.sendCommand(Protocol.Command.SET, "t:{run}:raw:c1", "raw bytes");
                client.sendCommand(Protocol.Command.EVAL, "return redis.call('HSET', KEYS[1], 's', 'READY')", "1",
                        "t:{run}:rec:c1");
                client.sendCommand(Protocol.Command.EXEC);
                client.getMany(3);
            });

            assertThat(sent).containsExactly(List.of("SET", "t:{run}:raw:c1", "raw bytes"),
                    List.of("EVAL", "return redis.call('HSET', KEYS[1], 's', 'READY')", "1", "t:{run}:rec:c1"));
        }
    }
}
