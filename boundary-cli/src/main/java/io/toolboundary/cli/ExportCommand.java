package io.toolboundary.cli;

import io.toolboundary.adapter.redis.RedisStoreOptions;
import io.toolboundary.export.JdbcAudit;
import io.toolboundary.application.spi.OutboxBacklog;
import io.toolboundary.domain.ToolName;
import io.toolboundary.export.RawResponsePolicy;
import io.toolboundary.export.RecordExporter;
import io.vavr.control.Either;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code export}: a process of its own that exports the Redis store's outbox into the audit database with a
 * {@link RecordExporter}, beside the application. The store is opened with {@code Outbox.KEYS}, which
 * changes no record. {@code --once} drains what is due and prints one line of counts; without it, rounds
 * run until SIGTERM or SIGINT (which close the exporter after its current round), and each failed round
 * prints its reason (the exporter's safe {@link RecordExporter.Failure}) and is tried again after a back-off.
 */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = "Exports the store's final records from its outbox into the audit database (MariaDB, MySQL "
                + "or PostgreSQL), beside the application: --once drains the outbox and exits; without it, runs "
                + "until SIGTERM or Ctrl-C. Needs a standalone server or Sentinel (Redis Cluster refuses export).")
final class ExportCommand implements Callable<Integer> {

    /** The back-off after a failed round: from this, doubling up to {@link #MAX_BACKOFF}. */
    static final Duration MIN_BACKOFF = Duration.ofMillis(200);
    /** The longest back-off. */
    static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
    /** A consumer name, as {@code RecordExporter} takes it. */
    private static final Pattern CONSUMER = Pattern.compile("[A-Za-z0-9_.:-]{1,64}");
    /** How long a signal waits for the current round to end before the process exits anyway. */
    private static final Duration STOP_WAIT = Duration.ofSeconds(30);

    @Mixin
    private Connection connection;

    @Mixin
    private Jdbc jdbc;

    @Option(names = "--raw", paramLabel = "POLICY", defaultValue = "mask",
            description = "what is written of raw responses: keep, mask (credentials masked) or omit "
                    + "(default: ${DEFAULT-VALUE})")
    private String raw;

    @Option(names = "--raw-tool", paramLabel = "TOOL=POLICY",
            description = "the raw response policy of one tool (keep, mask or omit); repeatable")
    private Map<String, String> rawTools = new LinkedHashMap<>();

    @Option(names = "--consumer", paramLabel = "NAME",
            description = "the name this exporter takes outbox entries under, 1 to 64 of [A-Za-z0-9_.:-]; "
                    + "unique per running exporter (default: exporter-<pid>-<random>)")
    private String consumer;

    @Option(names = "--batch", paramLabel = "N", defaultValue = "100",
            description = "the most records per round, written in one transaction, 1 to 10000 (default: ${DEFAULT-VALUE})")
    private int batch;

    @Option(names = "--claim-idle", paramLabel = "DURATION", defaultValue = "PT30S",
            description = "how long an entry another exporter took stays unacknowledged before this one takes it "
                    + "over (default: ${DEFAULT-VALUE})")
    private Duration claimIdle;

    @Option(names = "--poll-interval", paramLabel = "DURATION", defaultValue = "PT0.5S",
            description = "the pause after a round that found nothing (default: ${DEFAULT-VALUE})")
    private Duration pollInterval;

    @Option(names = "--once", description = "drain the outbox, print the counts and exit")
    private boolean once;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        if (batch < 1 || batch > 10_000) {
            throw new IllegalArgumentException("--batch must be 1 to 10000");
        }
        if (consumer != null && !CONSUMER.matcher(consumer).matches()) {
            throw new IllegalArgumentException("--consumer must be 1 to 64 characters of [A-Za-z0-9_.:-]");
        }
        RawResponsePolicy policy = policy("--raw", raw);
        Map<ToolName, RawResponsePolicy> policies = new LinkedHashMap<>();
        rawTools.forEach((tool, value) -> policies.put(ToolName.of(tool).getOrElseThrow(
                invalid -> new IllegalArgumentException("--raw-tool: " + tool + " is not a valid tool name")),
                policy("--raw-tool " + tool, value)));
        JdbcAudit audit = jdbc.audit();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (Connection.Opened opened = connection.open(RedisStoreOptions.Outbox.KEYS)) {
            RecordExporter.Builder builder = RecordExporter.builder(opened.store(), audit)
                    .batchSize(batch)
                    .claimIdle(positive("--claim-idle", claimIdle))
                    .pollInterval(positive("--poll-interval", pollInterval))
                    .storeTimeout(connection.timeout())
                    .backoff(MIN_BACKOFF, MAX_BACKOFF)
                    .rawResponses(policy);
            policies.forEach(builder::rawResponses);
            if (consumer != null) {
                builder.consumer(consumer);
            }
            try (RecordExporter exporter = builder.build()) {
                return once ? drain(exporter, out, err) : runUntilStopped(exporter, opened, out, err);
            }
        }
    }

    /** Rounds until one takes less than a batch (nothing more is due), then one line of counts. */
    private int drain(RecordExporter exporter, PrintWriter out, PrintWriter err) {
        while (true) {
            Either<String, RecordExporter.Round> round = round(exporter);
            if (round.isLeft()) {
                counts(exporter, out);
                err.println("toolboundary: " + round.getLeft() + "; its entries stay in the outbox");
                return Toolboundary.UNREACHABLE;
            }
            if (round.get().exported() + round.get().lost() < batch) {
                counts(exporter, out);
                return Toolboundary.OK;
            }
        }
    }

    /**
     * Rounds back to back while there is work, one per poll interval when there is none, a back-off after a
     * failure; until a signal (a shutdown hook, which then waits for this to close the exporter) or an
     * interrupt. Prints a line per failed round and one when rounds succeed again.
     */
    private int runUntilStopped(RecordExporter exporter, Connection.Opened opened, PrintWriter out, PrintWriter err) {
        CountDownLatch stop = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop.countDown();
            try {
                stopped.await(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        }, "toolboundary-export-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            out.printf("exporting %s:outbox to %s as %s; stop with Ctrl-C or SIGTERM%n",
                    opened.view().keyPrefix(), jdbc.maskedUrl(), exporter.consumer());
            out.flush();
            Duration backoff = MIN_BACKOFF;
            boolean failing = false;
            while (stop.getCount() > 0) {
                Duration pause;
                Either<String, RecordExporter.Round> round = round(exporter);
                if (round.isLeft()) {
                    pause = backoff;
                    err.printf("toolboundary: %s; retrying in %s%n", round.getLeft(), Facts.human(pause));
                    err.flush();
                    backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
                    failing = true;
                } else {
                    if (failing) {
                        out.println("export resumed");
                        out.flush();
                        failing = false;
                    }
                    backoff = MIN_BACKOFF;
                    pause = round.get().exported() + round.get().lost() == 0 ? pollInterval : Duration.ZERO;
                }
                if (!pause.isZero() && stop.await(pause.toMillis(), TimeUnit.MILLISECONDS)) {
                    break;
                }
                if (Thread.currentThread().isInterrupted()) {
                    break;
                }
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        } finally {
            exporter.close();
            out.print("stopped: ");
            counts(exporter, out);
            out.flush();
            err.flush();
            stopped.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // The hook is running: it is waiting for the countdown above.
            }
        }
        return Toolboundary.OK;
    }

    /** Prints the exporter's counts and the backlog it last measured: one line. */
    private static void counts(RecordExporter exporter, PrintWriter out) {
        RecordExporter.Stats stats = exporter.stats();
        io.vavr.control.Option<OutboxBacklog> backlog = stats.backlog();
        out.printf("exported %d, lost %d, backlog left %s%n", stats.exported(), stats.lost(),
                backlog.map(left -> left.entries() == 0 ? "0"
                        : left.entries() + " (oldest " + Facts.human(left.lag(exporter.clock().instant())) + ")")
                        .getOrElse("unknown"));
    }

    /**
     * One round; a failure as the line that reports it: the exporter's safe reason (masked once more), or the
     * class of what a driver threw against its contract, never its message.
     */
    private static Either<String, RecordExporter.Round> round(RecordExporter exporter) {
        try {
            return exporter.exportOnce().mapLeft(failure -> "export round failed at "
                    + failure.stage().name().toLowerCase(Locale.ROOT) + ": " + Jdbc.mask(failure.reason()));
        } catch (RuntimeException unexpected) {
            return Either.left("export round failed: unexpected " + unexpected.getClass().getName());
        }
    }

    private static RawResponsePolicy policy(String option, String value) {
        try {
            return RawResponsePolicy.valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException unknown) {
            throw new IllegalArgumentException(option + " must be keep, mask or omit");
        }
    }

    private static Duration positive(String option, Duration value) {
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(option + " must be positive");
        }
        return value;
    }
}
