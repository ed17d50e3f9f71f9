package io.toolboundary.citations;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The two ways a model writes a citation, each a text with one {@code {id}} between a prefix and a suffix,
 * such as {@code [evidence: {id}]}. Read leniently: letter case and the spaces of the form do not matter,
 * and one citation may name several ids separated by commas.
 */
final class CitationForms {

    static final String ID = "{id}";
    /** The longest text read as the ids of one citation: longer is not a citation. */
    private static final int MAX_IDS_TEXT = 1_000;
    /** A word, or one sign that is neither a letter, a digit nor a space. */
    private static final Pattern TOKEN = Pattern.compile("[\\p{L}\\p{N}]+|[^\\p{L}\\p{N}\\s]");

    private final String evidence;
    private final String notFound;
    private final Pattern evidencePattern;
    private final Pattern notFoundPattern;

    CitationForms(String evidence, String notFound) {
        this.evidencePattern = pattern(evidence, "evidence form");
        this.notFoundPattern = pattern(notFound, "not-found form");
        if (evidence.strip().equalsIgnoreCase(notFound.strip())) {
            throw new IllegalArgumentException("the evidence and not-found forms must differ, both are " + evidence);
        }
        this.evidence = evidence;
        this.notFound = notFound;
    }

    /** {@return the form for {@code kind} with {@code id} in place of {@code {id}}} */
    String write(Citation.Kind kind, String id) {
        return (kind == Citation.Kind.EVIDENCE ? evidence : notFound).replace(ID, id);
    }

    /** {@return every citation in {@code answer}, in the order written} */
    List<Citation> read(String answer) {
        requireNonNull(answer, "answer is null");
        TreeMap<Integer, List<Citation>> found = new TreeMap<>();
        collect(answer, evidencePattern, Citation.Kind.EVIDENCE, found);
        collect(answer, notFoundPattern, Citation.Kind.NOT_FOUND, found);
        List<Citation> citations = new ArrayList<>();
        found.values().forEach(citations::addAll);
        return List.copyOf(citations);
    }

    private static void collect(String answer, Pattern pattern, Citation.Kind kind, TreeMap<Integer, List<Citation>> found) {
        Matcher matcher = pattern.matcher(answer);
        while (matcher.find()) {
            List<Citation> here = new ArrayList<>();
            for (String id : matcher.group(1).split(",")) {
                if (!id.isBlank()) {
                    here.add(new Citation(kind, id.strip()));
                }
            }
            found.put(matcher.start(), here);
        }
    }

    private static Pattern pattern(String form, String what) {
        requireNonNull(form, what + " is null");
        int at = form.indexOf(ID);
        if (at < 0 || form.indexOf(ID, at + 1) >= 0) {
            throw new IllegalArgumentException("the " + what + " must hold " + ID + " once, was: " + form);
        }
        String prefix = form.substring(0, at);
        String suffix = form.substring(at + ID.length());
        if (prefix.isBlank() || suffix.isBlank()) {
            throw new IllegalArgumentException("the " + what + " needs text before and after " + ID + ", was: " + form);
        }
        return Pattern.compile(lenient(prefix) + "\\s*([^\\r\\n]{1," + MAX_IDS_TEXT + "}?)\\s*" + lenient(suffix),
                Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    }

    /** Spaces in a form match any run of spaces, or none, as does the gap between a word and a sign. */
    private static String lenient(String text) {
        StringBuilder regex = new StringBuilder();
        Matcher token = TOKEN.matcher(text.strip());
        while (token.find()) {
            if (regex.length() > 0) {
                regex.append("\\s*");
            }
            regex.append(Pattern.quote(token.group()));
        }
        return regex.toString();
    }
}
