package io.toolboundary.springaialibaba.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.domain.Projection;
import io.toolboundary.springai.autoconfigure.ToolBoundaryAutoConfiguration;
import io.toolboundary.springai.autoconfigure.ToolBoundaryStartupException;
import io.toolboundary.springaialibaba.BoundaryToolInterceptor;
import io.toolboundary.springaialibaba.ReactAgentTools;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The interceptor's auto-configuration, on the Spring AI starter's rules. */
class ReactAgentBoundaryAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ToolBoundaryAutoConfiguration.class,
                    ReactAgentBoundaryAutoConfiguration.class))
            .withPropertyValues("toolboundary.store=memory")
            .withBean(ToolBinding.class, () -> ReactAgentTools.readOnly("log_query",
                    (request, raw) -> Projection.evidenceFound("1 timeout", "logs")));

    private final ApplicationContextRunner withPolicy = runner
            .withBean(AccessPolicy.class, () -> AccessPolicy.allowOnly("log_query"));

    @Test
    void givesTheContextAnInterceptorOverItsBoundary() {
        withPolicy.run(context -> {
            assertThat(context).hasSingleBean(BoundaryToolInterceptor.class);
            assertThat(context.getBean(CanonicalInvocationStore.class)).isInstanceOf(InMemoryCanonicalInvocationStore.class);
            assertThat(context.getBean(ToolBoundary.class).toolNames()).hasSize(1);
            assertThat(context.getBean(ToolBoundaryConfig.class).replayReadyDuplicates()).isFalse();
        });
    }

    @Test
    void doesNotStartWithoutAnAccessPolicy() {
        runner.run(context -> assertThat(context).hasFailed().getFailure()
                .hasRootCauseInstanceOf(ToolBoundaryStartupException.class));
    }

    @Test
    void doesNotStartWithAnAccessPolicyNamingAToolNotBound() {
        runner.withBean(AccessPolicy.class, () -> AccessPolicy.allowOnly("log_query", "mysql_rows"))
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasRootCauseMessage("AccessPolicy.allowOnly names tools the boundary does not register: "
                                + "[mysql_rows]; register them with ToolBoundaryBuilder.tool or correct the names"));
    }

    @Test
    void validatesTheProperties() {
        withPolicy.withPropertyValues("toolboundary.limits.agent-result=0B")
                .run(context -> assertThat(context).hasFailed());
        withPolicy.withPropertyValues("toolboundary.duplicate-calls=sometimes")
                .run(context -> assertThat(context).hasFailed());
    }

    @Test
    void replaysReadyRecordsWhenTheApplicationSaysSo() {
        withPolicy.withPropertyValues("toolboundary.duplicate-calls=replay-ready", "toolboundary.record-ttl=3m")
                .run(context -> {
                    ToolBoundaryConfig config = context.getBean(ToolBoundaryConfig.class);
                    assertThat(config.replayReadyDuplicates()).isTrue();
                    assertThat(config.recordTtl()).hasMinutes(3);
                });
    }

    @Test
    void backsOffForTheApplicationsOwnInterceptorAndWhenSwitchedOff() {
        BoundaryToolInterceptor own = BoundaryToolInterceptor.of(ToolBoundary.builder()
                .store(InMemoryCanonicalInvocationStore.create()).accessPolicy(AccessPolicy.allowAll()).build());
        withPolicy.withBean(BoundaryToolInterceptor.class, () -> own)
                .run(context -> assertThat(context.getBean(BoundaryToolInterceptor.class)).isSameAs(own));
        withPolicy.withPropertyValues("toolboundary.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(BoundaryToolInterceptor.class)
                        .doesNotHaveBean(ToolBoundary.class));
    }
}
