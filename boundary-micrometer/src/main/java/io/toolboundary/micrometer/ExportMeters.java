package io.toolboundary.micrometer;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.toolboundary.application.spi.OutboxBacklog;
import io.toolboundary.export.RecordExporter;
import java.util.concurrent.TimeUnit;

/**
 * The meters of a {@link RecordExporter}, read from its counts at each scrape; tags are low-cardinality
 * only, and one exporter per registry is expected (several would share the meters' names and tags):
 * <ul>
 *   <li>{@code toolboundary.export.records}, tag {@code result} = {@code exported} | {@code lost}: records
 *       this exporter wrote, and records it found expired before it reached them;</li>
 *   <li>{@code toolboundary.export.failures}: rounds that stopped on a failure (their entries are kept);</li>
 *   <li>{@code toolboundary.export.lag}: the age of the oldest unexported outbox entry, in seconds;</li>
 *   <li>{@code toolboundary.export.backlog}: outbox entries not yet exported;</li>
 *   <li>{@code toolboundary.export.outbox.lost}: records the outbox counts as lost before export, by any
 *       exporter, since it was created.</li>
 * </ul>
 * Lag, backlog and the outbox's tally are as the exporter last measured them, after each round.
 */
public final class ExportMeters implements MeterBinder {

    private final RecordExporter exporter;

    private ExportMeters(RecordExporter exporter) {
        this.exporter = exporter;
    }

    /**
     * {@return the meters of {@code exporter}, to bind to a registry}
     *
     * @param exporter the exporter
     */
    public static ExportMeters of(RecordExporter exporter) {
        return new ExportMeters(requireNonNull(exporter, "exporter is null"));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        FunctionCounter.builder("toolboundary.export.records", exporter, e -> e.stats().exported())
                .tag("result", "exported").description("Records written to the audit database").register(registry);
        FunctionCounter.builder("toolboundary.export.records", exporter, e -> e.stats().lost())
                .tag("result", "lost").description("Records whose TTL ended before export").register(registry);
        FunctionCounter.builder("toolboundary.export.failures", exporter, e -> e.stats().failures())
                .description("Export rounds that stopped on a failure; their entries are kept").register(registry);
        TimeGauge.builder("toolboundary.export.lag", exporter, TimeUnit.MILLISECONDS,
                        e -> e.stats().backlog().map(b -> b.lag(e.clock().instant()).toMillis()).getOrElse(0L))
                .description("Age of the oldest unexported outbox entry").register(registry);
        Gauge.builder("toolboundary.export.backlog", exporter,
                        e -> e.stats().backlog().map(OutboxBacklog::entries).getOrElse(0L))
                .description("Outbox entries not yet exported").register(registry);
        Gauge.builder("toolboundary.export.outbox.lost", exporter,
                        e -> e.stats().backlog().map(OutboxBacklog::lost).getOrElse(0L))
                .description("Records lost before export, as the outbox counts them").register(registry);
    }
}
