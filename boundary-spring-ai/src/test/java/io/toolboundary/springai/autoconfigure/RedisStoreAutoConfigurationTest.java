package io.toolboundary.springai.autoconfigure;

import static io.toolboundary.springai.autoconfigure.ToolBoundaryAutoConfigurationTest.execute;
import static io.toolboundary.springai.autoconfigure.ToolBoundaryAutoConfigurationTest.onlyResponse;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.adapter.redis.RedisCanonicalInvocationStore;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.export.RecordAudit;
import io.toolboundary.springai.LineApi;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testsupport.redis.RedisDeployment;
import io.toolboundary.testsupport.redis.RedisServerFixture;
import io.toolboundary.testsupport.redis.RedisServerProcess;
import javax.sql.DataSource;
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
            // A short timeout, so that the check finds the server gone at once; one idle connection to open at
            // start (not Redisson's 24), so that a busy machine does not fail the client's creation within it.
            config.useSingleServer().setAddress(server.endpoint().uri()).setRetryAttempts(0).setTimeout(200)
                    .setConnectionMinimumIdleSize(1).setConnectionPoolSize(2);
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
    void exportBuildsTheRedisStoreWithItsOutboxAndACallEndsUpAsARow() {
        DataSource database = ExportAutoConfigurationTest.migratedPostgres();
        runner.withBean(RedissonClient.class, () -> client)
                .withBean(DataSource.class, () -> database)
                .withPropertyValues("toolboundary.redis.key-prefix=spring-ai-export", "toolboundary.export.enabled=true",
                        "toolboundary.export.poll-interval=20ms")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(CanonicalInvocationStore.class).outbox().isDefined()).isTrue();
                    RunContext run = Fixtures.anyRunContext();

                    execute(context, run, "call_x1", "{}");

                    RecordAudit audit = context.getBean(RecordAudit.class);
                    ExportAutoConfigurationTest.await(() -> audit.records(run.runId()).get().size() == 1);
                    assertThat(audit.records(run.runId()).get().get(0).record().key().toolCallId().value())
                            .isEqualTo("call_x1");
                    assertThat(redis.call("TYPE", "spring-ai-export:outbox")).isEqualTo("stream");
                });
        runner.withBean(RedissonClient.class, () -> client)
                .withPropertyValues("toolboundary.redis.key-prefix=spring-ai-no-export")
                .run(context -> {
                    assertThat(context.getBean(CanonicalInvocationStore.class).outbox().isEmpty()).isTrue();
                    execute(context, Fixtures.anyRunContext(), "call_x2", "{}");
                    assertThat(redis.callLong("EXISTS", "spring-ai-no-export:outbox")).as("off by default").isZero();
                });
    }

    @Test
    void exportIsRefusedOnARedisClusterClient() {
        RedisDeployment cluster = RedisServerFixture.cluster();
        Config config = new Config();
        config.useClusterServers().addNodeAddress(cluster.nodes().get(0).uri());
        RedissonClient clusterClient = Redisson.create(config);
        try {
            runner.withBean(RedissonClient.class, () -> clusterClient)
                    .withBean(DataSource.class, ExportAutoConfigurationTest::migratedPostgres)
                    .withPropertyValues("toolboundary.export.enabled=true")
                    .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                            .isInstanceOf(ToolBoundaryStartupException.class)
                            .hasMessageContaining("Redis Cluster refuses export"));
        } finally {
            clusterClient.shutdown();
        }
    }

    @Test
    void usesTheInMemoryStoreWithoutARedissonClientBean() {
        runner.run(context -> assertThat(context.getBean(CanonicalInvocationStore.class))
                .isNotInstanceOf(RedisCanonicalInvocationStore.class));
    }
}
