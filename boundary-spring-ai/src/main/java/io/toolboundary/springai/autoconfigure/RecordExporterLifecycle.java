package io.toolboundary.springai.autoconfigure;

import static java.util.Objects.requireNonNull;

import io.toolboundary.export.RecordExporter;
import io.vavr.control.Either;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Runs a {@link RecordExporter} on its own thread from the context's start, once every singleton (a Flyway
 * migration of the audit table included) is ready, to the context's stop, in phase 0: after the web server
 * and message listeners have stopped taking calls. On stop it closes the exporter after its current round,
 * then drains what is due in a few rounds more, so that the last calls' records leave an in-memory outbox
 * before the process ends. An exporter starts once: a context stopped and started again leaves it stopped.
 */
final class RecordExporterLifecycle implements SmartLifecycle {

    /** The most rounds the drain at stop takes. */
    static final int DRAIN_ROUNDS = 10;

    private static final Log LOG = LogFactory.getLog(ToolBoundaryAutoConfiguration.class);

    private final RecordExporter exporter;
    private final int batchSize;
    private boolean started;
    private volatile boolean running;

    RecordExporterLifecycle(RecordExporter exporter, int batchSize) {
        this.exporter = requireNonNull(exporter, "exporter is null");
        this.batchSize = batchSize;
    }

    @Override
    public synchronized void start() {
        if (started) {
            LOG.warn("Tool Boundary export: the RecordExporter runs once per context; it stays stopped after a restart");
            return;
        }
        exporter.start();
        started = true;
        running = true;
    }

    @Override
    public synchronized void stop() {
        if (!running) {
            return;
        }
        running = false;
        exporter.close();
        for (int round = 0; round < DRAIN_ROUNDS; round++) {
            Either<RecordExporter.Failure, RecordExporter.Round> done;
            try {
                done = exporter.exportOnce();
            } catch (RuntimeException broken) {
                LOG.warn("Tool Boundary export: the last round at stop failed (" + broken.getClass().getName()
                        + "); its entries stay in the outbox");
                return;
            }
            if (done.isLeft()) {
                LOG.warn("Tool Boundary export: the last round at stop failed (" + done.getLeft().stage() + ": "
                        + done.getLeft().reason() + "); its entries stay in the outbox");
                return;
            }
            if (done.get().exported() + done.get().lost() < batchSize) {
                return;
            }
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return 0;
    }
}
