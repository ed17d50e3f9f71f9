package io.toolboundary.micrometer;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.toolboundary.citations.CitationReport;
import io.toolboundary.citations.CitationVerdict;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Counts what a {@link io.toolboundary.citations.CitationCheck} decides, as its listener
 * ({@code CitationCheck.builder(boundary).listener(CitationMeters.of(registry))}); tags are low-cardinality only:
 * <ul>
 *   <li>{@code toolboundary.citations}, tag {@code verdict} = {@code accepted} | {@code not_referencable} |
 *       {@code negative_as_evidence} | {@code evidence_as_not_found} | {@code other_run} | {@code not_checked}:
 *       citations checked;</li>
 *   <li>{@code toolboundary.answers}, tag {@code grounded} = {@code true} | {@code false}, and {@code uncited}
 *       = {@code true} | {@code false}: answers checked.</li>
 * </ul>
 */
public final class CitationMeters implements Consumer<CitationReport> {

    private final Map<CitationVerdict, Counter> citations = new EnumMap<>(CitationVerdict.class);
    private final Counter grounded;
    private final Counter ungrounded;
    private final Counter uncited;

    private CitationMeters(MeterRegistry registry) {
        for (CitationVerdict verdict : CitationVerdict.values()) {
            citations.put(verdict, Counter.builder("toolboundary.citations")
                    .tag("verdict", verdict.name().toLowerCase(Locale.ROOT))
                    .description("Citations of agent answers, by verdict").register(registry));
        }
        this.grounded = answers(registry, true, false);
        this.ungrounded = answers(registry, false, false);
        this.uncited = answers(registry, false, true);
    }

    /**
     * {@return meters registered on {@code registry}, to give a citation check as its listener}
     *
     * @param registry the registry
     */
    public static CitationMeters of(MeterRegistry registry) {
        return new CitationMeters(requireNonNull(registry, "registry is null"));
    }

    private static Counter answers(MeterRegistry registry, boolean grounded, boolean uncited) {
        return Counter.builder("toolboundary.answers").tag("grounded", String.valueOf(grounded))
                .tag("uncited", String.valueOf(uncited)).description("Agent answers checked for their citations")
                .register(registry);
    }

    @Override
    public void accept(CitationReport report) {
        report.citations().forEach(checked -> citations.get(checked.verdict()).increment());
        (report.grounded() ? grounded : report.uncited() ? uncited : ungrounded).increment();
    }
}
