package io.toolboundary.testsupport.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vavr.control.Option;
import java.util.List;
import org.junit.jupiter.api.Test;

class RedisServerFixtureTest {

    @Test
    void startsOneStandaloneServerPerJvm() {
        RedisDeployment redis = RedisServerFixture.standalone();

        assertThat(redis.isCluster()).isFalse();
        assertThat(redis.nodes()).hasSize(1);
        assertThat(redis.call("PING")).isEqualTo("PONG");
        assertThat(RedisServerFixture.standalone()).isSameAs(redis);
    }

    @Test
    void startsAClusterOfThreeMastersCoveringEverySlot() {
        RedisDeployment cluster = RedisServerFixture.cluster();

        assertThat(cluster.isCluster()).isTrue();
        assertThat(cluster.callOnEveryNode("CLUSTER", "INFO")).hasSize(3)
                .allSatisfy(info -> assertThat((String) info).contains("cluster_state:ok", "cluster_slots_assigned:16384"));
    }

    @Test
    void followsClusterRedirectsToTheNodeThatOwnsAKey() {
        RedisDeployment cluster = RedisServerFixture.cluster();

        for (int i = 0; i < 20; i++) {
            String key = "fixture-test:{slot-" + i + "}";
            assertThat(cluster.call("SET", key, "v" + i, "PX", "60000")).isEqualTo("OK");
            assertThat(cluster.call("GET", key)).isEqualTo("v" + i);
        }
    }

    @Test
    void sendsAndReadsTextByteForByteWithNilAndErrorReplies() {
        RedisDeployment redis = RedisServerFixture.standalone();
        String text = "\uD83D\uDE00 \uD834\uDD1E é\r\n\u0000";

        redis.call("SET", "fixture-test:text", text, "PX", "60000");

        assertThat(redis.call("GET", "fixture-test:text")).isEqualTo(text);
        assertThat(redis.call("STRLEN", "fixture-test:text")).isEqualTo(15L);
        assertThat(redis.call("GET", "fixture-test:missing")).isEqualTo(RedisAdmin.Nil.NIL);
        assertThat(redis.call("MGET", "fixture-test:text", "fixture-test:missing"))
                .isEqualTo(List.of(text, RedisAdmin.Nil.NIL));
        assertThatThrownBy(() -> redis.call("HGET", "fixture-test:text", "field"))
                .isInstanceOf(RedisErrorReply.class)
                .extracting(error -> ((RedisErrorReply) error).kind()).isEqualTo("WRONGTYPE");
    }

    @Test
    void readsRedisUrls() {
        assertThat(RedisEndpoint.parse("redis://10.0.0.7:6380")).isEqualTo(RedisEndpoint.of("10.0.0.7", 6380));
        assertThat(RedisEndpoint.parse("redis://:s3cret@cache")).isEqualTo(new RedisEndpoint("cache", 6379, Option.of("s3cret")));
        assertThat(RedisEndpoint.parse("redis://user:pw@cache:7000").uri()).isEqualTo("redis://:pw@cache:7000");
        assertThatThrownBy(() -> RedisEndpoint.parse("http://cache:6379")).isInstanceOf(IllegalArgumentException.class);
    }
}
