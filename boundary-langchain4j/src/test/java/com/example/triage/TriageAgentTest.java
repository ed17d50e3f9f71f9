package com.example.triage;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.testsupport.redis.RedisDeployment;
import io.toolboundary.testsupport.redis.RedisServerFixture;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The application of docs/integrations-langchain4j-micrometer.md, run as its {@code main}, on a real redis-server. */
class TriageAgentTest {

    @Test
    void runsAgainstRedisAndShowsTheModelOnlyTheErrorLine() {
        RedisDeployment redis = RedisServerFixture.standalone();
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream out = System.out;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            TriageAgent.main(new String[] {redis.nodes().get(0).uri()});
        } finally {
            System.setOut(out);
        }

        String printed = captured.toString(StandardCharsets.UTF_8);
        assertThat(printed).contains("The model saw:\nEVIDENCE_FOUND (scope: checkout logs)\n10:00:02 ERROR checkout timed out after 3000 ms\n")
                .contains("Answer: Checkout timed out.")
                .contains("Record READY; raw response, for the harness only:\n10:00:01 INFO  login ok user=alice password=hunter2\n");
        assertThat(printed.substring(printed.indexOf("The model saw:"), printed.indexOf("Answer:"))).doesNotContain("hunter2");
        assertThat(redis.call("KEYS", "toolboundary:*").toString()).contains(":call:call_1").contains("}:run");
    }

    @Test
    void theDocumentShowsThisApplicationVerbatim() throws IOException {
        String doc = Files.readString(Path.of("../docs/integrations-langchain4j-micrometer.md"));
        String app = Files.readString(Path.of("src/test/java/com/example/triage/TriageAgent.java"));

        assertThat(doc).contains("```java\n" + app + "```");
        assertThat(doc).contains("(" + app.lines().count() + " lines)");
    }
}
