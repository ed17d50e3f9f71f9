package io.toolboundary.demo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TableTest {

    @Test
    void abbreviatesLongTextWithItsWholeUtf8Size() {
        String text = "\u00e9".repeat(10);

        assertThat(Table.abbreviate(text, 4)).isEqualTo("\u00e9\u00e9\u00e9\u00e9\u2026(20 bytes)");
        assertThat(Table.abbreviate(text, 10)).isEqualTo(text);
    }

    @Test
    void neverSplitsASurrogatePairWhenAbbreviating() {
        String text = "ab\uD83D\uDE00cd";

        assertThat(Table.abbreviate(text, 3)).isEqualTo("ab\u2026(8 bytes)");
    }

    @Test
    void wrapsAtSpacesAndAfterCommasAndKeepsLineBreaks() {
        assertThat(Table.wrap("alpha beta gamma\ndelta", 11)).containsExactly("alpha beta", "gamma", "delta");
        assertThat(Table.wrap("{\"a\":\"xxxx\",\"b\":\"yyyy\"}", 16)).containsExactly("{\"a\":\"xxxx\",", "\"b\":\"yyyy\"}");
    }

    @Test
    void keepsAnAbbreviationMarkerOnOneLine() {
        String abbreviated = Table.abbreviate("one two three four five six", 17);

        assertThat(Table.wrap(abbreviated, 22)).containsExactly("one two three", "fou\u2026(27 bytes)");
    }

    @Test
    void printsEveryLineAtTheFullWidth() {
        Table table = new Table().title("A title long enough to wrap? ".repeat(5))
                .group("group").row("field", "value ".repeat(30)).row("other", "x");

        assertThat(table.lines()).allSatisfy(line -> assertThat(line).hasSize(Table.WIDTH))
                .first().isEqualTo("+" + "=".repeat(Table.WIDTH - 2) + "+");
    }
}
