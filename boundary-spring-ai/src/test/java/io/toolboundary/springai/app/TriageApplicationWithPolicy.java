package io.toolboundary.springai.app;

import io.toolboundary.application.AccessPolicy;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** {@link TriageApplication} with its access policy. */
@Configuration(proxyBeanMethods = false)
@Import(TriageApplication.class)
public class TriageApplicationWithPolicy {

    @Bean
    AccessPolicy accessPolicy() {
        return AccessPolicy.allowOnly("log-search");
    }
}
