package io.toolboundary.citations;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.ToolBoundary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** docs/citations.md shows the forms, the prompt fragment and the verdicts as the check has them. */
class CitationDocsTest {

    private static final Path PAGE = Path.of("..", "docs", "citations.md");

    private final CitationCheck check = CitationCheck.of(ToolBoundary.builder()
            .store(InMemoryCanonicalInvocationStore.create()).accessPolicy(AccessPolicy.allowAll()).build());

    @Test
    void thePromptFragmentIsTheChecksOwn() throws IOException {
        assertThat(page()).contains("```text\n" + check.promptFragment() + "\n```");
    }

    @Test
    void theFormsAreTheDefaults() throws IOException {
        assertThat(page()).contains("```text\n" + CitationCheck.EVIDENCE_FORM.replace("{id}", "call_3") + "\n"
                + CitationCheck.NOT_FOUND_FORM.replace("{id}", "call_4") + "\n```");
    }

    @Test
    void everyVerdictHasARow() throws IOException {
        String rows = Arrays.stream(page().split("\n")).filter(line -> line.startsWith("| `"))
                .collect(Collectors.joining("\n"));

        for (CitationVerdict verdict : CitationVerdict.values()) {
            assertThat(rows).as("the row of %s", verdict).contains("| `" + verdict.name() + "` |");
        }
    }

    private static String page() throws IOException {
        return Files.readString(PAGE, StandardCharsets.UTF_8);
    }
}
