package io.toolboundary.citations;

import static java.util.Objects.requireNonNull;

import io.toolboundary.domain.RunId;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The verdict on one answer: each citation in the order written, with its verdict, and whether the answer
 * cites nothing although the conversation showed the model results it could cite (only when the check
 * does not allow that). Holds no record data: only ids the model itself wrote.
 *
 * @param runId the run the answer belongs to
 * @param citations each citation with its verdict, in the order written
 * @param uncited the answer cites nothing while READY results of the run were shown to the model
 */
public record CitationReport(RunId runId, List<Checked> citations, boolean uncited) {

    /**
     * One citation and its verdict.
     *
     * @param citation the citation as written
     * @param verdict what the run's records say of it
     */
    public record Checked(Citation citation, CitationVerdict verdict) {
        /**
         * @param citation the citation as written
         * @param verdict what the run's records say of it
         */
        public Checked {
            requireNonNull(citation, "citation is null");
            requireNonNull(verdict, "verdict is null");
        }
    }

    /**
     * @param runId the run the answer belongs to
     * @param citations each citation with its verdict, in the order written
     * @param uncited the answer cites nothing while READY results of the run were shown to the model
     */
    public CitationReport {
        requireNonNull(runId, "runId is null");
        citations = List.copyOf(requireNonNull(citations, "citations is null"));
        if (uncited && !citations.isEmpty()) {
            throw new IllegalArgumentException("an answer with citations is not uncited");
        }
    }

    /** {@return whether the answer may go out: every citation accepted, and not uncited} */
    public boolean grounded() {
        return !uncited && citations.stream().allMatch(checked -> checked.verdict() == CitationVerdict.ACCEPTED);
    }

    /** {@return how many citations got each verdict; verdicts no citation got are absent} */
    public Map<CitationVerdict, Integer> counts() {
        Map<CitationVerdict, Integer> counts = new EnumMap<>(CitationVerdict.class);
        citations.forEach(checked -> counts.merge(checked.verdict(), 1, Integer::sum));
        return Collections.unmodifiableMap(counts);
    }
}
