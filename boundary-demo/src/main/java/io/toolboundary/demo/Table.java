package io.toolboundary.demo;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.Projector;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A plain-ASCII table of fixed width: title lines across the whole table, then groups of rows with
 * three columns (group, field, value). Long text wraps inside its column; nothing is cut without a
 * marker.
 */
final class Table {

    /** The width of every line the table prints, in characters. */
    static final int WIDTH = 100;

    private static final int GROUP_WIDTH = 14;
    private static final int FIELD_WIDTH = 18;
    private static final int VALUE_WIDTH = WIDTH - GROUP_WIDTH - FIELD_WIDTH - 10;
    private static final int TITLE_WIDTH = WIDTH - 4;
    private static final Pattern MARKER = Pattern.compile("\u2026\\(\\d+ bytes\\)");

    private final List<String> titles = new ArrayList<>();
    private final List<Group> groups = new ArrayList<>();

    /** Adds a line across the whole table, above the groups. */
    Table title(String text) {
        titles.add(requireNonNull(text, "text is null"));
        return this;
    }

    /** Starts a group of rows; the group's name is shown beside its first row. */
    Table group(String name) {
        requireNonNull(name, "name is null");
        if (name.length() > GROUP_WIDTH) {
            throw new IllegalArgumentException("name must be at most " + GROUP_WIDTH + " characters: " + name);
        }
        groups.add(new Group(name, new ArrayList<>()));
        return this;
    }

    /** Adds a row to the current group. */
    Table row(String field, String value) {
        requireNonNull(field, "field is null");
        requireNonNull(value, "value is null");
        if (groups.isEmpty()) {
            throw new IllegalStateException("row before any group");
        }
        if (field.length() > FIELD_WIDTH) {
            throw new IllegalArgumentException("field must be at most " + FIELD_WIDTH + " characters: " + field);
        }
        groups.get(groups.size() - 1).rows().add(new Row(field, value));
        return this;
    }

    /** The table's lines, each exactly {@link #WIDTH} characters wide. */
    List<String> lines() {
        List<String> lines = new ArrayList<>();
        lines.add(border('=', true));
        for (String title : titles) {
            for (String line : wrap(title, TITLE_WIDTH)) {
                lines.add("| " + pad(line, TITLE_WIDTH) + " |");
            }
        }
        for (Group group : groups) {
            lines.add(border('-', false));
            String groupName = group.name();
            for (Row row : group.rows()) {
                List<String> values = wrap(row.value(), VALUE_WIDTH);
                for (int i = 0; i < values.size(); i++) {
                    lines.add("| " + pad(groupName, GROUP_WIDTH) + " | " + pad(i == 0 ? row.field() : "", FIELD_WIDTH)
                            + " | " + pad(values.get(i), VALUE_WIDTH) + " |");
                    groupName = "";
                }
            }
        }
        lines.add(border('-', false));
        return lines;
    }

    /**
     * The text itself when it has at most {@code maxChars} characters, else its beginning followed by
     * {@code …(N bytes)}, N being the UTF-8 size of the whole text.
     */
    static String abbreviate(String text, int maxChars) {
        requireNonNull(text, "text is null");
        if (text.length() <= maxChars) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(maxChars - 1)) ? maxChars - 1 : maxChars;
        return text.substring(0, end) + "\u2026(" + Projector.utf8Length(text) + " bytes)";
    }

    /** Splits text into lines of at most {@code width} characters, at spaces or after commas where it can. */
    static List<String> wrap(String text, int width) {
        List<String> lines = new ArrayList<>();
        for (String paragraph : text.split("\n", -1)) {
            String rest = paragraph;
            while (rest.length() > width) {
                int cut = keepMarkerWhole(rest, breakAt(rest, width));
                lines.add(rest.substring(0, cut).stripTrailing());
                rest = rest.substring(cut).stripLeading();
            }
            lines.add(rest);
        }
        return lines;
    }

    /** Breaks at the last space, or after the last comma, that leaves at least half a line; else hard. */
    private static int breakAt(String line, int width) {
        int cut = Math.max(line.lastIndexOf(' ', width), line.lastIndexOf(',', width - 1) + 1);
        return cut < width / 2 ? width : cut;
    }

    /** Moves a break that falls inside a "…(N bytes)" marker to just before the marker. */
    private static int keepMarkerWhole(String line, int cut) {
        Matcher marker = MARKER.matcher(line);
        while (marker.find()) {
            if (marker.start() < cut && cut < marker.end()) {
                int space = line.lastIndexOf(' ', marker.start());
                return space > 0 ? space : Math.max(marker.start(), 1);
            }
        }
        return cut;
    }

    private static String border(char fill, boolean whole) {
        if (whole) {
            return "+" + String.valueOf(fill).repeat(WIDTH - 2) + "+";
        }
        String dash = String.valueOf(fill);
        return "+" + dash.repeat(GROUP_WIDTH + 2) + "+" + dash.repeat(FIELD_WIDTH + 2) + "+"
                + dash.repeat(VALUE_WIDTH + 2) + "+";
    }

    private static String pad(String text, int width) {
        return text + " ".repeat(width - text.length());
    }

    private record Group(String name, List<Row> rows) {
    }

    private record Row(String field, String value) {
    }
}
