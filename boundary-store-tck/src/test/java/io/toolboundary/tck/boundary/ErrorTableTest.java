package io.toolboundary.tck.boundary;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.domain.ErrorCode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The error table of the configuration guide says what the code does: one row per {@link ErrorCode}, in the enum's order,
 * and each row's "record" column names exactly the states {@link ErrorRecords} allows, which the
 * error-path suite checks on every store, one scenario per code.
 */
class ErrorTableTest {

    private static final Path GUIDE = Path.of("..", "docs", "configuration.md");

    @Test
    void hasOneRowPerErrorCodeInTheEnumsOrder() throws IOException {
        assertThat(rows().keySet()).containsExactlyElementsOf(
                Arrays.stream(ErrorCode.values()).map(Enum::name).collect(Collectors.toList()));
    }

    @Test
    void eachRowsRecordColumnNamesTheStatesTheScenariosLeave() throws IOException {
        rows().forEach((code, record) -> assertThat(states(record))
                .as("the record column of %s: '%s'", code, record)
                .isEqualTo(ErrorRecords.allowed(ErrorCode.valueOf(code))));
    }

    /** The error table's rows: code to its "record" column, in the guide's order. */
    private static Map<String, String> rows() throws IOException {
        List<String> lines = Files.readAllLines(GUIDE, StandardCharsets.UTF_8);
        int start = lines.indexOf("## Error codes");
        assertThat(start).as("the guide's error codes section").isNotNegative();
        Map<String, String> rows = new LinkedHashMap<>();
        for (String line : lines.subList(start + 1, lines.size())) {
            if (line.startsWith("## ")) {
                break;
            }
            if (line.startsWith("| `")) {
                List<String> cells = cells(line);
                rows.put(cells.get(0).replace("`", ""), cells.get(cells.size() - 1));
            }
        }
        return rows;
    }

    /** The cells of a table row, split at the pipes outside backticks. */
    private static List<String> cells(String line) {
        List<String> cells = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean code = false;
        for (char c : line.substring(1, line.length() - 1).toCharArray()) {
            if (c == '`') {
                code = !code;
            }
            if (c == '|' && !code) {
                cells.add(cell.toString().strip());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        cells.add(cell.toString().strip());
        return cells;
    }

    /** The states a "record" cell names, by its words. */
    private static Set<ErrorRecords.After> states(String record) {
        String text = record.toLowerCase(Locale.ROOT);
        if (text.contains("unchanged")) {
            return EnumSet.of(ErrorRecords.After.UNCHANGED);
        }
        if (text.contains("as far as it got")) {
            return EnumSet.of(ErrorRecords.After.ANY);
        }
        Set<ErrorRecords.After> states = EnumSet.noneOf(ErrorRecords.After.class);
        for (ErrorRecords.After state : List.of(ErrorRecords.After.NONE, ErrorRecords.After.PROJECTING,
                ErrorRecords.After.READY, ErrorRecords.After.ERROR)) {
            if (text.matches(".*\\b" + state.name().toLowerCase(Locale.ROOT) + "\\b.*")) {
                states.add(state);
            }
        }
        return states;
    }
}
