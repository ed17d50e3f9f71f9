package io.toolboundary.springai.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.MeterRegistry;
import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.adapter.redis.RedisCanonicalInvocationStore;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.springai.BoundaryToolCallingManager;
import io.toolboundary.springai.BoundaryToolContext;
import io.toolboundary.springai.ErrorLinesProjector;
import io.toolboundary.springai.LineApi;
import io.toolboundary.springai.LogTools;
import io.toolboundary.springai.OutputCapture;
import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testsupport.redis.RedisDeployment;
import io.toolboundary.testsupport.redis.RedisEndpoint;
import io.toolboundary.testsupport.redis.RedisServerFixture;
import io.toolboundary.testsupport.redis.RedisServerProcess;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.api.RedissonClient;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.model.tool.DefaultToolCallingManager;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A Spring Boot application (3.5 with Spring AI 1.1 here, 4.0 with Spring AI 2.0 in boundary-spring-ai2) with Spring AI's ChatClient, a scripted chat model, {@code @Tool} methods and
 * redisson-spring-boot-starter 4.7.0 on a real redis-server that the test starts: started with
 * {@link SpringApplicationBuilder} as {@code main} would, and the start failures read from Boot's own report.
 */
@ExtendWith(OutputCapture.class)
class SpringBootApplicationTest {

    private static final String APPLICATION_FAILED = "APPLICATION FAILED TO START";
    private static final String STACK_FRAME = "\tat ";

    private static RedisDeployment redis;

    @BeforeAll
    static void startRedis() {
        redis = RedisServerFixture.standalone();
    }

    private static String[] redisProperties(RedisEndpoint endpoint, String... more) {
        List<String> properties = new ArrayList<>(List.of(
                "spring.data.redis.host=" + endpoint.host(),
                "spring.data.redis.port=" + endpoint.port(),
                "spring.main.banner-mode=off"));
        endpoint.password().forEach(password -> properties.add("spring.data.redis.password=" + password));
        properties.addAll(List.of(more));
        return properties.toArray(String[]::new);
    }

    private static ConfigurableApplicationContext start(Class<?> application, String... properties) {
        return new SpringApplicationBuilder(application)
                .web(WebApplicationType.NONE)
                .properties(redisProperties(redis.nodes().get(0), properties))
                .run();
    }

    @Nested
    class WithAnAccessPolicy {

        @Test
        void storesInRedisThroughRedissonsStarterAndSaysSoOnceAtInfo(OutputCapture.Captured output) {
            try (ConfigurableApplicationContext context = start(TriageApplicationWithPolicy.class,
                    "toolboundary.redis.key-prefix=boot-app")) {
                assertThat(context.getBean(CanonicalInvocationStore.class)).isInstanceOf(RedisCanonicalInvocationStore.class);
                assertThat(context.getBean(ToolCallingManager.class)).isInstanceOf(BoundaryToolCallingManager.class);
                RunContext run = Fixtures.opened(context.getBean(ToolBoundary.class), Fixtures.anyRunContext());
                SpringScriptedChatModel model = context.getBean(SpringScriptedChatModel.class)
                        .thenRequests("call_boot1", "log-search", "{\"query\":\"checkout\"}")
                        .thenSays("Checkout timed out.");

                String answer = context.getBean(ChatClient.class).prompt().user("What failed in checkout?")
                        .toolContext(BoundaryToolContext.of(run)).call().content();

                assertThat(answer).isEqualTo("Checkout timed out.");
                assertThat(redis.callLong("EXISTS", "boot-app:{" + run.runId().value() + "}:call:call_boot1")).isEqualTo(1);
                CanonicalRecord record = context.getBean(ToolBoundary.class)
                        .find(run.runId(), new ToolCallId("call_boot1")).get().get();
                assertThat(record.rawResponse().get()).isEqualTo(LogTools.LOG_OUTPUT);
                assertThat(model.toolResponses()).containsExactly("EVIDENCE_FOUND (scope: " + ErrorLinesProjector.SCOPE
                        + ")\n2026-01-01T10:00:02Z ERROR checkout timed out after 3000 ms (\"payment\" \\ gateway)");
                assertThat(model.everythingSent()).doesNotContain("hunter2");
            }
            assertThat(output.getOut().split("Tool Boundary store: ", -1)).hasSize(2);
            assertThat(output.getOut()).contains("INFO").contains(
                    "Tool Boundary store: Redis (toolboundary.store=auto), key prefix 'boot-app'");
        }

        @Test
        void storesInMemoryWhenToldToEvenWithARedissonClient(OutputCapture.Captured output) {
            try (ConfigurableApplicationContext context = start(TriageApplicationWithPolicy.class,
                    "toolboundary.store=memory")) {
                assertThat(context.getBeansOfType(RedissonClient.class)).hasSize(1);
                assertThat(context.getBean(CanonicalInvocationStore.class)).isInstanceOf(InMemoryCanonicalInvocationStore.class);
            }
            assertThat(output.getOut()).contains("Tool Boundary store: in memory (toolboundary.store=memory)");
        }

        @Test
        void refusesToStartWhenRedisIsRequiredAndNoRedissonClientExists(OutputCapture.Captured output) {
            assertThatThrownBy(() -> start(TriageApplicationWithPolicy.class, "toolboundary.store=redis",
                    "spring.autoconfigure.exclude=org.redisson.spring.starter.RedissonAutoConfigurationV2,"
                            + "org.redisson.spring.starter.RedissonAutoConfigurationV4"))
                    .isNotNull();
            assertThat(output.getOut()).contains(APPLICATION_FAILED)
                    .contains("toolboundary.store=redis, but the context has no single RedissonClient bean")
                    .contains("Add a RedissonClient bean")
                    .doesNotContain(STACK_FRAME);
        }

        @Test
        void refusesARedisServerThatMayEvictNamingTheProperty(OutputCapture.Captured output) {
            try (RedisServerProcess evicting = RedisServerProcess.start()) {
                evicting.call("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");
                assertThatThrownBy(() -> new SpringApplicationBuilder(TriageApplicationWithPolicy.class)
                        .web(WebApplicationType.NONE)
                        .properties(redisProperties(evicting.endpoint()))
                        .run()).isNotNull();
                assertThat(output.getOut()).contains(APPLICATION_FAILED)
                        .contains("maxmemory-policy is 'allkeys-lru'")
                        .contains("toolboundary.redis.eviction-policy-check=warn")
                        .doesNotContain("EvictionPolicyCheck")
                        .doesNotContain(STACK_FRAME);
            }
        }

        @Test
        void refusesAnInvalidPropertyNamingItAndItsRange(OutputCapture.Captured output) {
            assertThatThrownBy(() -> start(TriageApplicationWithPolicy.class, "toolboundary.record-ttl=-5s"))
                    .isNotNull();
            assertThat(output.getOut()).contains(APPLICATION_FAILED)
                    .contains("Property: toolboundary.record-ttl")
                    .contains("Value: \"-5s\"")
                    .contains("must be at least 1ms")
                    .doesNotContain("recordTtl")
                    .doesNotContain(STACK_FRAME);
        }

        @Test
        void refusesLimitsThatDoNotNestInTheRecordLimit(OutputCapture.Captured output) {
            assertThatThrownBy(() -> start(TriageApplicationWithPolicy.class, "toolboundary.limits.record=64KB",
                    "toolboundary.limits.agent-result=128KB", "toolboundary.limits.raw-response=1MB"))
                    .isNotNull();
            assertThat(output.getOut()).contains(APPLICATION_FAILED)
                    .contains("Property: toolboundary.limits.agent-result")
                    .contains("Property: toolboundary.limits.raw-response")
                    .contains("must not exceed toolboundary.limits.record (65536 bytes)")
                    .doesNotContain(STACK_FRAME);
        }
    }

    @Nested
    class Observed {

        @Test
        void registersMetersObservesEachCallWithLowCardinalityTagsAndReportsRedisHealth() {
            try (ConfigurableApplicationContext context = start(ObservedTriageApplication.class)) {
                RunContext run = Fixtures.opened(context.getBean(ToolBoundary.class), Fixtures.anyRunContext());
                context.getBean(SpringScriptedChatModel.class)
                        .thenRequests("call_obs1", "log-search", "{\"query\":\"checkout\"}")
                        .thenRequests("call_obs1", "log-search", "{\"query\":\"checkout\"}")
                        .thenSays("done");

                context.getBean(ChatClient.class).prompt().user("What failed?")
                        .toolContext(BoundaryToolContext.of(run)).call().content();

                MeterRegistry meters = context.getBean(MeterRegistry.class);
                assertThat(meters.get("toolboundary.calls").tags("tool", "log-search", "outcome", "ready",
                        "evidence", "EVIDENCE_FOUND", "error.code", "none").counter().count()).isEqualTo(1.0);
                assertThat(meters.get("toolboundary.calls").tags("outcome", "rejected",
                        "error.code", "DUPLICATE_TOOL_CALL").counter().count()).isEqualTo(1.0);

                ObservedTriageApplication.StoppedObservations observed =
                        context.getBean(ObservedTriageApplication.StoppedObservations.class);
                assertThat(observed.named(BoundaryToolCallingManager.OBSERVATION)).hasSize(2);
                assertThat(observed.named(BoundaryToolCallingManager.OBSERVATION).get(0).getLowCardinalityKeyValues())
                        .extracting(KeyValue::getKey, KeyValue::getValue)
                        .containsExactlyInAnyOrder(tuple("tool", "log-search"), tuple("outcome", "ready"),
                                tuple("evidence", "EVIDENCE_FOUND"), tuple("error.code", "none"));
                assertThat(observed.named(BoundaryToolCallingManager.OBSERVATION).get(1).getLowCardinalityKeyValues())
                        .extracting(KeyValue::getKey, KeyValue::getValue)
                        .contains(tuple("outcome", "error"), tuple("error.code", "DUPLICATE_TOOL_CALL"));
                assertThat(observed.named(BoundaryToolCallingManager.OBSERVATION)).allSatisfy(observation ->
                        assertThat(observation.getHighCardinalityKeyValues()).isEmpty());
                assertThat(observed.named("spring.ai.tool")).hasSize(2);
                assertThat(observed.named(BoundaryToolCallingManager.OBSERVATION).toString())
                        .doesNotContain("call_obs1", run.runId().value(), "hunter2", "checkout");

                LineApi.Reported health = LineApi.health(context, "toolBoundaryRedisHealthIndicator");
                assertThat(health.status()).isEqualTo("UP");
                assertThat(health.details()).containsEntry("maxmemory-policy", "noeviction");
            }
        }
    }

    @Nested
    class WithActuator {

        @Test
        void bootsOwnRegistriesGetTheMetersTheObservationTimersAndTheHealthContributor() {
            try (ConfigurableApplicationContext context = start(TriageApplicationWithPolicy.class)) {
                RunContext run = Fixtures.opened(context.getBean(ToolBoundary.class), Fixtures.anyRunContext());
                context.getBean(SpringScriptedChatModel.class)
                        .thenRequests("call_act1", "log-search", "{\"query\":\"checkout\"}")
                        .thenSays("done");

                context.getBean(ChatClient.class).prompt().user("What failed?")
                        .toolContext(BoundaryToolContext.of(run)).call().content();

                MeterRegistry meters = context.getBean(MeterRegistry.class);
                assertThat(meters.get("toolboundary.calls").tags("tool", "log-search", "outcome", "ready")
                        .counter().count()).isEqualTo(1.0);
                assertThat(meters.get(BoundaryToolCallingManager.OBSERVATION).tags("tool", "log-search",
                        "outcome", "ready", "evidence", "EVIDENCE_FOUND", "error.code", "none").timer().count())
                        .isEqualTo(1);
                assertThat(meters.get("spring.ai.tool").timer().count()).isEqualTo(1);
                assertThat(LineApi.healthIndicatorRegistered(context, "toolBoundaryRedis")).isTrue();
            }
        }
    }

    @Nested
    class WithoutAnAccessPolicy {

        @Test
        void refusesToStartNamingTheBeanToAddAndTheOptOut(OutputCapture.Captured output) {
            assertThatThrownBy(() -> start(TriageApplication.class)).isNotNull();

            assertThat(output.getOut()).contains(APPLICATION_FAILED)
                    .contains("The tool boundary needs an AccessPolicy bean")
                    .contains("Add a bean of type io.toolboundary.application.AccessPolicy")
                    .contains("toolboundary.enabled=false")
                    .doesNotContain(STACK_FRAME);
        }

        @Test
        void startsWithoutTheBoundaryOnlyWhenExplicitlyDisabled() {
            try (ConfigurableApplicationContext context = start(TriageApplication.class, "toolboundary.enabled=false")) {
                assertThat(context.getBeansOfType(ToolBoundary.class)).isEmpty();
                assertThat(context.getBean(ToolCallingManager.class)).isInstanceOf(DefaultToolCallingManager.class);
            }
        }
    }
}
