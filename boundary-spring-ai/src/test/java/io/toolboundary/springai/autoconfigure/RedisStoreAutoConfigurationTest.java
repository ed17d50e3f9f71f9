package io.toolboundary.springai.autoconfigure;

import static io.toolboundary.springai.autoconfigure.ToolBoundaryAutoConfigurationTest.execute;
import static io.toolboundary.springai.autoconfigure.ToolBoundaryAutoConfigurationTest.onlyResponse;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.adapter.redis.RedisCanonicalInvocationStore;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.springai.LineApi;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testsupport.redis.RedisDeployment;
import io.toolboundary.testsupport.redis.RedisServerFixture;
import io.toolboundary.testsupport.redis.RedisServerProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The Redis branch of the auto-configuration, on a real Redis server. */
class RedisStoreAutoConfigurationTest {

    private static RedisDeployment redis;
    private static RedissonClient client;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ToolBoundaryAutoConfiguration.class))
            .withBean(AccessPolicy.class, AccessPolicy::allowAll)
            .withBean(ToolBinding.class, () -> ToolBinding.readOnly("log-search", FakeTools.returning("raw logs"),
                    FakeProjectors.evidenceFound("bounded logs")));

    @BeforeAll
    static void connect() {
        redis = RedisServerFixture.standalone();
        Config config = new Config();
        config.useSingleServer().setAddress(redis.nodes().get(0).uri());
        client = Redisson.create(config);
    }

    @AfterAll
    static void disconnect() {
        client.shutdown();
    }

    @Test
    void usesTheRedisStoreOnTheContextsRedissonClientWithTheConfiguredPrefix() {
        runner.withBean(RedissonClient.class, () -> client)
                .withPropertyValues("toolboundary.redis.key-prefix=spring-ai-test")
                .run(context -> {
                    assertThat(context.getBean(CanonicalInvocationStore.class))
                            .isInstanceOf(RedisCanonicalInvocationStore.class);
                    RunContext run = Fixtures.anyRunContext();

                    assertThat(onlyResponse(execute(context, run, "call_r1", "{}"))).isEqualTo("EVIDENCE_FOUND\nbounded logs");

                    String key = "spring-ai-test:{" + run.runId().value() + "}:call:call_r1";
                    assertThat(redis.callLong("EXISTS", key)).isEqualTo(1);
                    assertThat(redis.callLong("PTTL", key)).isPositive();
                    String runState = "spring-ai-test:{" + run.runId().value() + "}:run";
                    assertThat(redis.callLong("PTTL", runState)).as("the run was opened").isPositive();
                });
        assertThat(client.isShutdown()).isFalse();
    }

    @Test
    void startsOnAServerThatMayEvictOnlyWhenTheCheckSaysWarnAndReportsItInHealth() {
        try (RedisServerProcess evicting = RedisServerProcess.start()) {
            evicting.call("CONFIG", "SET", "maxmemory-policy", "volatile-lru");
            Config config = new Config();
            config.useSingleServer().setAddress(evicting.endpoint().uri());
            RedissonClient evictingClient = Redisson.create(config);
            try {
                ApplicationContextRunner onEvicting = runner.withBean(RedissonClient.class, () -> evictingClient);
                onEvicting.run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .isInstanceOf(ToolBoundaryStartupException.class)
                        .hasMessageContaining("'volatile-lru'")
                        .hasMessageContaining("toolboundary.redis.eviction-policy-check is refuse"));
                onEvicting.withPropertyValues("toolboundary.redis.eviction-policy-check=warn")
                        .run(context -> {
                            assertThat(context).hasNotFailed();
                            assertThat(context.getBean(CanonicalInvocationStore.class))
                                    .isInstanceOf(RedisCanonicalInvocationStore.class);
                            LineApi.Reported health = LineApi.health(context, "toolBoundaryRedisHealthIndicator");
                            assertThat(health.status()).isEqualTo("UP");
                            assertThat(health.details()).containsEntry("maxmemory-policy", "volatile-lru")
                                    .containsKey("warning");
                        });
            } finally {
                evictingClient.shutdown();
            }
        }
    }

    @Test
    void healthStaysUpAndWarnsWhenTheServerDoesNotLetTheStoreReadItsEvictionPolicy() {
        try (RedisServerProcess server = RedisServerProcess.start()) {
            // an application user that may run the store's commands but not CONFIG
            server.call("ACL", "SETUSER", "app", "on", ">app-secret", "~*", "&*", "+@all", "-config");
            Config config = new Config();
            config.useSingleServer().setAddress(server.endpoint().uri()).setUsername("app").setPassword("app-secret");
            RedissonClient appClient = Redisson.create(config);
            try {
                runner.withBean(RedissonClient.class, () -> appClient).run(context -> {
                    assertThat(context).hasNotFailed();
                    RunContext run = Fixtures.anyRunContext();
                    assertThat(onlyResponse(execute(context, run, "call_u1", "{}"))).isEqualTo("EVIDENCE_FOUND\nbounded logs");

                    LineApi.Reported health = LineApi.health(context, "toolBoundaryRedisHealthIndicator");
                    assertThat(health.status()).isEqualTo("UP");
                    assertThat(health.details()).containsEntry("maxmemory-policy", "unreadable")
                            .containsEntry("warning", "the masters' maxmemory-policy could not be read (is CONFIG GET"
                                    + " allowed?)");
                    assertThat(health.details().toString()).doesNotContain("app-secret", "127.0.0.1");
                });
            } finally {
                appClient.shutdown();
            }
        }
    }

    @Test
    void healthIsDownWhenTheServerStopsAnswering() {
        try (RedisServerProcess server = RedisServerProcess.start()) {
            Config config = new Config();
            config.useSingleServer().setAddress(server.endpoint().uri()).setRetryAttempts(0).setTimeout(200);
            RedissonClient serverClient = Redisson.create(config);
            try {
                runner.withBean(RedissonClient.class, () -> serverClient).run(context -> {
                    assertThat(LineApi.health(context, "toolBoundaryRedisHealthIndicator").status()).isEqualTo("UP");

                    server.kill();

                    assertThat(LineApi.health(context, "toolBoundaryRedisHealthIndicator").status()).isEqualTo("DOWN");
                });
            } finally {
                serverClient.shutdown();
            }
        }
    }

    @Test
    void usesTheInMemoryStoreWithoutARedissonClientBean() {
        runner.run(context -> assertThat(context.getBean(CanonicalInvocationStore.class))
                .isNotInstanceOf(RedisCanonicalInvocationStore.class));
    }
}
