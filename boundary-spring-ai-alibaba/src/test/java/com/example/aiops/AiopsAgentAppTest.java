package com.example.aiops;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.testsupport.redis.RedisDeployment;
import io.toolboundary.testsupport.redis.RedisEndpoint;
import io.toolboundary.testsupport.redis.RedisServerFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/** The application of docs/integrations-spring-ai-alibaba.md, run as its {@code main} would, on a real redis-server. */
@ExtendWith(OutputCaptureExtension.class)
class AiopsAgentAppTest {

    private static final Path DOC = Path.of("../docs/integrations-spring-ai-alibaba.md");

    @Test
    void runsTheAgentOnRedisAndShowsTheModelOnlyBoundedResults(CapturedOutput output) {
        RedisDeployment redis = RedisServerFixture.standalone();
        RedisEndpoint endpoint = redis.nodes().get(0);
        String[] args = {"--redis.url=" + endpoint.uri(), "--toolboundary.redis.key-prefix=aiops-app",
                "--spring.main.web-application-type=none"};

        try (ConfigurableApplicationContext context = SpringApplication.run(AiopsAgentApp.class, args)) {
            String out = output.getOut();
            assertThat(out).contains("Tool Boundary store: Redis (toolboundary.store=auto), key prefix 'aiops-app'")
                    .contains("The model saw (call_1):\nEVIDENCE_FOUND (scope: service logs)\n"
                            + "10:00:02 ERROR checkout timed out after 3000 ms calling payments\n")
                    .contains("The model saw (call_2):\nEVIDENCE_FOUND (scope: orders table)\n2 rows:\n")
                    .contains("The model saw (call_3):\nEVIDENCE_FOUND (scope: runbooks)\n[runbook/payments.md#timeouts]")
                    .contains("Answer: Payments timed out.")
                    .contains("Raw response of call_1, for the harness only:\n10:00:01 INFO  checkout login ok user=alice password=hunter2\n");
            String seen = out.substring(out.indexOf("The model saw"), out.indexOf("Answer:"));
            assertThat(seen).doesNotContain("hunter2");
        }
        assertThat(redis.call("KEYS", "aiops-app:*").toString())
                .contains(":call:call_1").contains(":call:call_2").contains(":call:call_3").contains("}:run");
    }

    @Test
    void theDocumentShowsThisApplicationVerbatimWithItsLineCounts() throws IOException {
        String doc = Files.readString(DOC);
        String app = Files.readString(Path.of("src/test/java/com/example/aiops/AiopsAgentApp.java"));

        assertThat(doc).contains("```java\n" + app + "```");
        assertThat(doc).contains("(" + app.lines().count() + " lines)");
        Matcher pom = Pattern.compile("The `pom.xml` fragment \\((\\d+) lines.*?```xml\n(.*?)```", Pattern.DOTALL).matcher(doc);
        assertThat(pom.find()).as("the pom fragment").isTrue();
        assertThat(pom.group(2).lines().count()).isEqualTo(Long.parseLong(pom.group(1)));
    }
}
