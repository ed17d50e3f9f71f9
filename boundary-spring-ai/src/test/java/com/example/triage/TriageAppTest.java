package com.example.triage;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.springai.OutputCapture;
import io.toolboundary.testsupport.redis.RedisDeployment;
import io.toolboundary.testsupport.redis.RedisEndpoint;
import io.toolboundary.testsupport.redis.RedisServerFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/** The application of docs/integrations-spring-ai.md, run as its {@code main} would, on a real redis-server. */
@ExtendWith(OutputCapture.class)
class TriageAppTest {

    @Test
    void runsAgainstRedisAndShowsTheModelOnlyTheErrorLine(OutputCapture.Captured output) {
        RedisDeployment redis = RedisServerFixture.standalone();
        RedisEndpoint endpoint = redis.nodes().get(0);
        String[] args = {"--redis.url=" + endpoint.uri(), "--toolboundary.redis.key-prefix=docs-app",
                "--spring.main.web-application-type=none"};

        try (ConfigurableApplicationContext context = SpringApplication.run(TriageApp.class, args)) {
            String out = output.getOut();
            assertThat(out).contains("Tool Boundary store: Redis (toolboundary.store=auto), key prefix 'docs-app'")
                    .contains("The model saw:\nEVIDENCE_FOUND (scope: checkout logs)\n10:00:02 ERROR checkout timed out after 3000 ms\n")
                    .contains("Answer: Checkout timed out.")
                    .contains("Record READY; raw response, for the harness only:\n10:00:01 INFO  login ok user=alice password=hunter2\n");
            String seen = out.substring(out.indexOf("The model saw:"), out.indexOf("Answer:"));
            assertThat(seen).doesNotContain("hunter2");
        }
        assertThat(redis.call("KEYS", "docs-app:*").toString()).contains(":call:call_1").contains("}:run");
    }

    @Test
    void theDocumentShowsThisApplicationVerbatim() throws IOException {
        String doc = Files.readString(Path.of("../docs/integrations-spring-ai.md"));
        String app = Files.readString(Path.of("src/line-test/java/com/example/triage/TriageApp.java"));

        assertThat(doc).contains("```java\n" + app + "```");
        assertThat(doc).contains("(" + app.lines().count() + " lines)");
    }
}
