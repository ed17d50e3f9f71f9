package io.toolboundary.citations;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Referencability;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.vavr.control.Either;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Holds an agent's answer against the run's records: each citation gets a {@link CitationVerdict} from how
 * its record may be cited (READY with EVIDENCE_FOUND as evidence, READY with NO_EVIDENCE only as "nothing
 * found", PROJECTING, ERROR or none not at all). One store read per answer
 * ({@link ToolBoundary#referencability(RunId, java.util.Set)}, which carries no request or raw response),
 * off the tool call's path; the report and the {@link #feedback feedback} hold only ids the model wrote,
 * never record data or another run's ids. Thread-safe; one instance serves all runs.
 *
 * <p>{@code shown} names the results the model saw in its conversation, each under its run: a cited id
 * shown only under another run is {@link CitationVerdict#OTHER_RUN}, and an answer that cites nothing while
 * a shown result of its run is READY is {@linkplain CitationReport#uncited() uncited} unless
 * {@link Builder#allowUncited} says that is fine.
 */
public final class CitationCheck {

    /** The default form of a citation as evidence. */
    public static final String EVIDENCE_FORM = "[evidence: {id}]";
    /** The default form of a citation of a negative observation. */
    public static final String NOT_FOUND_FORM = "[not found: {id}]";
    /** The most distinct calls one answer may cite; the rest are {@link CitationVerdict#NOT_CHECKED}. */
    public static final int MAX_CITED_CALLS = 64;
    /** What the user is shown in place of an answer that stays ungrounded: it reveals nothing of the records. */
    public static final String WITHHELD = "The answer was withheld: its citations do not match the tool results"
            + " of this run.";

    private final ToolBoundary boundary;
    private final CitationForms forms;
    private final boolean allowUncited;
    private final Consumer<CitationReport> listener;

    private CitationCheck(Builder builder) {
        this.boundary = builder.boundary;
        this.forms = new CitationForms(builder.evidenceForm, builder.notFoundForm);
        this.allowUncited = builder.allowUncited;
        this.listener = builder.listener;
    }

    /**
     * {@return a check over {@code boundary}'s store with the default forms, refusing uncited answers}
     *
     * @param boundary the boundary whose store holds the run's records
     */
    public static CitationCheck of(ToolBoundary boundary) {
        return builder(boundary).build();
    }

    /**
     * {@return a builder of a check over {@code boundary}'s store}
     *
     * @param boundary the boundary whose store holds the run's records
     */
    public static Builder builder(ToolBoundary boundary) {
        return new Builder(requireNonNull(boundary, "boundary is null"));
    }

    /**
     * {@return every citation in {@code answer} in the check's forms, in the order written}
     *
     * @param answer the model's answer text
     */
    public List<Citation> citations(String answer) {
        return forms.read(answer);
    }

    /**
     * Checks the citations written in {@code answer}.
     *
     * @param runId the run the answer belongs to
     * @param answer the model's answer text
     * @param shown the results the model saw in its conversation, each under its run
     * @return the report, or the store's error (then nothing is known: treat the answer as ungrounded)
     */
    public Either<BoundaryError, CitationReport> check(RunId runId, String answer, Collection<InvocationKey> shown) {
        return check(runId, citations(answer), shown);
    }

    /**
     * Checks citations a framework extracted itself.
     *
     * @param runId the run the answer belongs to
     * @param citations the answer's citations, in the order written
     * @param shown the results the model saw in its conversation, each under its run
     * @return the report, or the store's error (then nothing is known: treat the answer as ungrounded)
     */
    public Either<BoundaryError, CitationReport> check(RunId runId, List<Citation> citations,
            Collection<InvocationKey> shown) {
        requireNonNull(runId, "runId is null");
        List<Citation> cited = List.copyOf(requireNonNull(citations, "citations is null"));
        Set<ToolCallId> ownShown = new LinkedHashSet<>();
        Set<String> otherShown = new LinkedHashSet<>();
        for (InvocationKey key : requireNonNull(shown, "shown is null")) {
            if (key.runId().equals(runId)) {
                ownShown.add(key.toolCallId());
            } else {
                otherShown.add(key.toolCallId().value());
            }
        }
        Set<ToolCallId> toRead = new LinkedHashSet<>();
        if (cited.isEmpty()) {
            if (!allowUncited) {
                ownShown.stream().limit(CanonicalInvocationStore.MAX_FIND_ALL).forEach(toRead::add);
            }
        } else {
            for (Citation citation : cited) {
                ToolCallId.of(citation.toolCallId()).forEach(id -> {
                    if (toRead.size() < MAX_CITED_CALLS && (ownShown.contains(id) || !otherShown.contains(id.value()))) {
                        toRead.add(id);
                    }
                });
            }
        }
        Either<BoundaryError, Map<ToolCallId, Referencability>> read = toRead.isEmpty()
                ? Either.right(Map.of())
                : boundary.referencability(runId, toRead);
        return read.map(records -> report(runId, cited, records, toRead, ownShown, otherShown))
                .peek(this::tell);
    }

    private CitationReport report(RunId runId, List<Citation> cited, Map<ToolCallId, Referencability> records,
            Set<ToolCallId> read, Set<ToolCallId> ownShown, Set<String> otherShown) {
        if (cited.isEmpty()) {
            boolean readyShown = records.values().stream().anyMatch(citable -> citable != Referencability.NOT_REFERENCABLE);
            return new CitationReport(runId, List.of(), readyShown);
        }
        List<CitationReport.Checked> checked = new ArrayList<>(cited.size());
        for (Citation citation : cited) {
            checked.add(new CitationReport.Checked(citation, verdict(citation, records, read, ownShown, otherShown)));
        }
        return new CitationReport(runId, checked, false);
    }

    private static CitationVerdict verdict(Citation citation, Map<ToolCallId, Referencability> records,
            Set<ToolCallId> read, Set<ToolCallId> ownShown, Set<String> otherShown) {
        Either<BoundaryError, ToolCallId> id = ToolCallId.of(citation.toolCallId());
        if (id.isLeft()) {
            return CitationVerdict.NOT_REFERENCABLE;
        }
        if (!ownShown.contains(id.get()) && otherShown.contains(id.get().value())) {
            return CitationVerdict.OTHER_RUN;
        }
        if (!read.contains(id.get())) {
            return CitationVerdict.NOT_CHECKED;
        }
        Referencability referencability = records.getOrDefault(id.get(), Referencability.NOT_REFERENCABLE);
        return switch (referencability) {
            case NOT_REFERENCABLE -> CitationVerdict.NOT_REFERENCABLE;
            case CITABLE_EVIDENCE -> citation.kind() == Citation.Kind.EVIDENCE
                    ? CitationVerdict.ACCEPTED : CitationVerdict.EVIDENCE_AS_NOT_FOUND;
            case SCOPED_NEGATIVE_OBSERVATION -> citation.kind() == Citation.Kind.NOT_FOUND
                    ? CitationVerdict.ACCEPTED : CitationVerdict.NEGATIVE_AS_EVIDENCE;
        };
    }

    private void tell(CitationReport report) {
        try {
            listener.accept(report);
        } catch (RuntimeException ignored) {
            // A listener's failure never changes a verdict.
        }
    }

    /**
     * The words that ask the model to revise an ungrounded answer: which of its citations were refused and
     * why, in the check's forms, with only the ids it wrote itself (an id that names no call is not echoed).
     *
     * @param report the report of the answer to revise
     * @return the instruction for the model's next turn
     */
    public String feedback(CitationReport report) {
        requireNonNull(report, "report is null");
        StringBuilder text = new StringBuilder("Your answer was not accepted. Cite only tool results of this"
                + " conversation: a result labelled EVIDENCE_FOUND as ")
                .append(forms.write(Citation.Kind.EVIDENCE, "<tool call id>"))
                .append(", a result labelled NO_EVIDENCE as ")
                .append(forms.write(Citation.Kind.NOT_FOUND, "<tool call id>"))
                .append(" (nothing found within its scope, never a finding); a result labelled ERROR may not be cited.");
        if (report.uncited()) {
            text.append("\n- The answer cites none of the tool results it rests on.");
        }
        Set<String> said = new LinkedHashSet<>();
        for (CitationReport.Checked checked : report.citations()) {
            if (checked.verdict() == CitationVerdict.ACCEPTED) {
                continue;
            }
            String written = ToolCallId.of(checked.citation().toolCallId())
                    .map(id -> forms.write(checked.citation().kind(), id.value()))
                    .getOrElse(() -> forms.write(checked.citation().kind(), "...") + " (names no tool call)");
            String line = "\n- " + written + ": " + reason(checked.verdict());
            if (said.add(line)) {
                text.append(line);
            }
        }
        return text.append("\nRewrite the answer with correct citations, or say what could not be established.")
                .toString();
    }

    private static String reason(CitationVerdict verdict) {
        return switch (verdict) {
            case ACCEPTED -> "accepted";
            case NOT_REFERENCABLE -> "that call failed, has no result, or is not a call of this run; it cannot be cited";
            case NEGATIVE_AS_EVIDENCE -> "that call found nothing within its scope; cite it as not found, never as evidence";
            case EVIDENCE_AS_NOT_FOUND -> "that call found evidence; cite it as evidence";
            case OTHER_RUN -> "that call belongs to an earlier run; cite only this run's calls";
            case NOT_CHECKED -> "too many calls cited at once; cite at most " + MAX_CITED_CALLS;
        };
    }

    /**
     * {@return a fragment for the system prompt that asks the model to cite in the check's forms}
     */
    public String promptFragment() {
        return "When your answer relies on a tool result, cite it by its tool call id: write "
                + forms.write(Citation.Kind.EVIDENCE, "<tool call id>") + " after a statement a result labelled"
                + " EVIDENCE_FOUND supports, and " + forms.write(Citation.Kind.NOT_FOUND, "<tool call id>")
                + " where a result labelled NO_EVIDENCE showed that nothing was found within its scope (say the"
                + " scope; it is not proof of absence elsewhere). Never cite a result labelled ERROR.";
    }

    /** Builds a {@link CitationCheck}; the defaults are the forms above, uncited answers refused, no listener. */
    public static final class Builder {

        private final ToolBoundary boundary;
        private String evidenceForm = EVIDENCE_FORM;
        private String notFoundForm = NOT_FOUND_FORM;
        private boolean allowUncited;
        private Consumer<CitationReport> listener = report -> { };

        private Builder(ToolBoundary boundary) {
            this.boundary = boundary;
        }

        /**
         * Sets the two forms a model writes, each holding {@code {id}} once between non-blank text.
         *
         * @param evidence the form of a citation as evidence, such as {@value #EVIDENCE_FORM}
         * @param notFound the form of a citation of a negative observation, such as {@value #NOT_FOUND_FORM}
         * @return this builder
         * @throws IllegalArgumentException when a form has no {@code {id}}, two, nothing around it, or both are one
         */
        public Builder forms(String evidence, String notFound) {
            new CitationForms(evidence, notFound);
            this.evidenceForm = evidence;
            this.notFoundForm = notFound;
            return this;
        }

        /**
         * Lets an answer that cites nothing pass although the model was shown READY results (refused by default).
         *
         * @param allow whether such an answer is grounded
         * @return this builder
         */
        public Builder allowUncited(boolean allow) {
            this.allowUncited = allow;
            return this;
        }

        /**
         * Sets what is told of every report (a meter, an audit); a listener that throws changes no verdict.
         *
         * @param listener told once per checked answer, on the checking thread
         * @return this builder
         */
        public Builder listener(Consumer<CitationReport> listener) {
            this.listener = requireNonNull(listener, "listener is null");
            return this;
        }

        /** {@return the check} */
        public CitationCheck build() {
            return new CitationCheck(this);
        }
    }
}
