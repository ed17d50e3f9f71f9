package io.toolboundary.export;

import static java.util.Objects.requireNonNull;

import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.vavr.control.Option;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * One checked answer as the audit database holds it: whether it was grounded, and the verdict on each of its
 * citations in the order written. Holds only ids the model wrote that are safe tool_call_ids, never record
 * data.
 *
 * @param checkId the row's generated id
 * @param runId the run the answer belongs to
 * @param checkedAt the instant the check answered, to the nanosecond
 * @param grounded whether the answer could go out
 * @param uncited whether the answer cited nothing while READY results of the run were shown
 * @param citations how many citations the answer had
 * @param verdicts the verdicts of the first {@value #MAX_VERDICTS} citations, in the order written
 */
public record AuditedCitationCheck(UUID checkId, RunId runId, Instant checkedAt, boolean grounded, boolean uncited,
        int citations, List<Verdict> verdicts) {

    /** The most verdicts a row holds; {@link #citations()} counts them all. */
    public static final int MAX_VERDICTS = 256;

    /**
     * A checked answer.
     *
     * @param checkId the row's generated id
     * @param runId the run the answer belongs to
     * @param checkedAt the instant the check answered, to the nanosecond
     * @param grounded whether the answer could go out
     * @param uncited whether the answer cited nothing while READY results of the run were shown
     * @param citations how many citations the answer had, 0 or more
     * @param verdicts the verdicts of the first {@value #MAX_VERDICTS} citations, in the order written: as many as
     *     there are citations, up to that bound
     * @throws IllegalArgumentException when the parts contradict one another: a count below 0, verdicts that are
     *     not the first citations' verdicts, an uncited answer with citations or that is grounded, a grounded
     *     answer with a verdict other than {@code ACCEPTED}
     */
    public AuditedCitationCheck {
        requireNonNull(checkId, "checkId is null");
        requireNonNull(runId, "runId is null");
        requireNonNull(checkedAt, "checkedAt is null");
        verdicts = List.copyOf(requireNonNull(verdicts, "verdicts is null"));
        if (citations < 0) {
            throw new IllegalArgumentException("citations must be 0 or more, was " + citations);
        }
        if (verdicts.size() != Math.min(citations, MAX_VERDICTS)) {
            throw new IllegalArgumentException("verdicts must be those of the first " + MAX_VERDICTS
                    + " citations: " + verdicts.size() + " for " + citations);
        }
        if (uncited && (citations > 0 || grounded)) {
            throw new IllegalArgumentException("an uncited answer has no citations and is not grounded");
        }
        if (grounded && verdicts.stream().anyMatch(verdict -> !verdict.verdict().equals(Verdict.ACCEPTED))) {
            throw new IllegalArgumentException("a grounded answer has every citation accepted");
        }
    }

    /** {@return the verdicts as the table's {@code verdicts} column holds them: each entry, joined by {@code ;}} */
    public String verdictsText() {
        StringBuilder text = new StringBuilder();
        for (Verdict verdict : verdicts) {
            text.append(text.length() == 0 ? "" : ";").append(verdict);
        }
        return text.toString();
    }

    /**
     * {@return the verdicts of a {@code verdicts} column, in order}
     *
     * @param text entries as {@link #verdictsText()} writes them; empty for none
     * @throws IllegalArgumentException when an entry is not {@code <kind>:<tool call id or ?>=<VERDICT>}
     */
    public static List<Verdict> parseVerdicts(String text) {
        requireNonNull(text, "text is null");
        if (text.isEmpty()) {
            return List.of();
        }
        List<Verdict> verdicts = new ArrayList<>();
        for (String entry : text.split(";", -1)) {
            int colon = entry.indexOf(':');
            int equals = entry.lastIndexOf('=');
            if (colon < 0 || equals < colon) {
                throw new IllegalArgumentException("an entry is not <kind>:<id>=<VERDICT>");
            }
            String id = entry.substring(colon + 1, equals);
            Option<ToolCallId> toolCallId = id.equals(Verdict.UNSAFE_ID) ? Option.none()
                    : Option.of(ToolCallId.of(id).getOrElseThrow(() -> new IllegalArgumentException(
                            "an entry's id is not a safe tool_call_id")));
            verdicts.add(new Verdict(entry.substring(0, colon), toolCallId, entry.substring(equals + 1)));
        }
        return List.copyOf(verdicts);
    }

    /**
     * The verdict on one citation.
     *
     * @param kind what the answer claimed the call showed: {@code EVIDENCE} or {@code NOT_FOUND}
     * @param toolCallId the cited id, none when what the model wrote is not a safe tool_call_id
     * @param verdict the verdict's name, such as {@code ACCEPTED} or {@code NOT_REFERENCABLE}
     */
    public record Verdict(String kind, Option<ToolCallId> toolCallId, String verdict) {

        /** The name of the verdict that lets a citation through. */
        public static final String ACCEPTED = "ACCEPTED";
        /** What is written in place of an id that is not a safe tool_call_id. */
        public static final String UNSAFE_ID = "?";

        private static final Pattern NAME = Pattern.compile("[A-Z][A-Z_]{0,31}");

        /**
         * A verdict.
         *
         * @param kind what the answer claimed the call showed: 1 to 32 of {@code [A-Z_]}, starting with a letter
         * @param toolCallId the cited id, none when what the model wrote is not a safe tool_call_id
         * @param verdict the verdict's name: 1 to 32 of {@code [A-Z_]}, starting with a letter
         * @throws IllegalArgumentException when a name is not of that form
         */
        public Verdict {
            requireNonNull(kind, "kind is null");
            requireNonNull(toolCallId, "toolCallId is null");
            requireNonNull(verdict, "verdict is null");
            if (!NAME.matcher(kind).matches() || !NAME.matcher(verdict).matches()) {
                throw new IllegalArgumentException("kind and verdict must be 1 to 32 of [A-Z_], starting with a letter");
            }
        }

        /** {@return the entry as the {@code verdicts} column holds it: {@code <kind>:<id>=<VERDICT>}, {@code ?} for no id} */
        @Override
        public String toString() {
            return kind + ":" + toolCallId.map(ToolCallId::value).getOrElse(UNSAFE_ID) + "=" + verdict;
        }
    }
}
