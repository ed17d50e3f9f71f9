package io.toolboundary.export;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.OutboxBacklog;
import io.toolboundary.application.spi.OutboxEntry;
import io.toolboundary.application.spi.RecordOutbox;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ToolName;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;

/**
 * Exports final records from a store's outbox into an {@link AuditSink}, beside the boundary: an
 * {@code invoke} never waits for it, and a database outage changes nothing the agent sees.
 *
 * <p>Each round takes entries from the outbox, reads their records from the store (unless the outbox
 * carries them), writes them in one upsert each, keyed by (run id, tool_call_id), and only then
 * acknowledges them. Nothing is acknowledged that was not written: when the store or the database fails,
 * the round's entries are kept and tried again after a back-off, and an exporter killed before its
 * acknowledgement leaves them to be claimed by its successor (or another instance) once idle for
 * {@code claimIdle}; the upsert makes the second write a no-op. A record whose TTL ended before it was
 * reached is counted as lost, in the outbox's lasting tally, never skipped silently.
 */
public final class RecordExporter implements AutoCloseable {

    private static final Pattern CONSUMER = Pattern.compile("[A-Za-z0-9_.:-]{1,64}");

    private final RecordOutbox outbox;
    private final CanonicalInvocationStore store;
    private final AuditSink sink;
    private final String consumer;
    private final int batchSize;
    private final Duration claimIdle;
    private final Duration storeTimeout;
    private final Duration pollInterval;
    private final Backoff backoff;
    private final RawResponsePolicy rawPolicy;
    private final Map<ToolName, RawResponsePolicy> rawPolicies;
    private final Clock clock;

    /** Entries taken and not yet acknowledged, after a failed round: tried again before any new poll. */
    private List<OutboxEntry> held = List.of();
    private final AtomicLong exported = new AtomicLong();
    private final AtomicLong lost = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicReference<Option<OutboxBacklog>> lastBacklog = new AtomicReference<>(Option.none());
    private final AtomicReference<Option<Failure>> lastFailure = new AtomicReference<>(Option.none());
    private final CountDownLatch stop = new CountDownLatch(1);
    private Thread worker;

    private RecordExporter(Builder builder, RecordOutbox outbox) {
        this.outbox = outbox;
        this.store = builder.store;
        this.sink = builder.sink;
        this.consumer = builder.consumer;
        this.batchSize = builder.batchSize;
        this.claimIdle = builder.claimIdle;
        this.storeTimeout = builder.storeTimeout;
        this.pollInterval = builder.pollInterval;
        this.backoff = builder.backoff;
        this.rawPolicy = builder.rawPolicy;
        this.rawPolicies = Map.copyOf(builder.rawPolicies);
        this.clock = builder.clock;
    }

    /**
     * {@return a builder for an exporter of {@code store}'s outbox into {@code sink}}
     *
     * @param store a store built with its outbox on
     * @param sink where records are written, for example a {@code JdbcAudit}
     */
    public static Builder builder(CanonicalInvocationStore store, AuditSink sink) {
        return new Builder(requireNonNull(store, "store is null"), requireNonNull(sink, "sink is null"));
    }

    /**
     * Runs one round: takes up to a batch of entries (those of a failed round first), writes their
     * records, acknowledges them. Synchronous; for a worker of the application's own, a scheduler, or a
     * test. Not to be called while {@link #start()}'s thread runs.
     *
     * @return what the round did, or why it stopped (its entries are then kept for the next round)
     */
    public synchronized Either<Failure, Round> exportOnce() {
        Either<Failure, Round> round = round();
        outbox.backlog(storeTimeout).forEach(backlog -> lastBacklog.set(Option.of(backlog)));
        return round;
    }

    private Either<Failure, Round> round() {
        List<OutboxEntry> entries = held;
        if (entries.isEmpty()) {
            Either<StoreFailure, List<OutboxEntry>> polled = outbox.poll(consumer, batchSize, claimIdle, storeTimeout);
            if (polled.isLeft()) {
                return failed(new Failure(Stage.OUTBOX, "outbox poll: " + polled.getLeft().kind()));
            }
            entries = polled.get();
        }
        held = entries;
        List<AuditedRecord> rows = new ArrayList<>(entries.size());
        List<OutboxEntry> gone = new ArrayList<>();
        for (OutboxEntry entry : entries) {
            Option<CanonicalRecord.Final> record = entry.record();
            if (record.isEmpty()) {
                Either<StoreFailure, Option<CanonicalRecord>> found = store.find(entry.key(), storeTimeout);
                if (found.isLeft()) {
                    return failed(new Failure(Stage.STORE, "record read: " + found.getLeft().kind()));
                }
                record = found.get().filter(CanonicalRecord.Final.class::isInstance).map(CanonicalRecord.Final.class::cast);
            }
            if (record.isEmpty()) {
                gone.add(entry);
            } else {
                CanonicalRecord.Final stored = record.get();
                rows.add(AuditedRecord.of(stored, rawPolicies.getOrDefault(stored.tool(), rawPolicy)));
            }
        }
        if (!rows.isEmpty()) {
            Either<AuditFailure, Integer> written = sink.write(rows);
            if (written.isLeft()) {
                return failed(new Failure(Stage.DATABASE, written.getLeft().toString()));
            }
        }
        if (!entries.isEmpty()) {
            Either<StoreFailure, Integer> acknowledged = outbox.acknowledge(entries, gone, storeTimeout);
            if (acknowledged.isLeft()) {
                return failed(new Failure(Stage.OUTBOX, "outbox acknowledgement: " + acknowledged.getLeft().kind()));
            }
        }
        held = List.of();
        exported.addAndGet(rows.size());
        lost.addAndGet(gone.size());
        lastFailure.set(Option.none());
        return Either.right(new Round(rows.size(), gone.size()));
    }

    private Either<Failure, Round> failed(Failure failure) {
        failures.incrementAndGet();
        lastFailure.set(Option.of(failure));
        return Either.left(failure);
    }

    /**
     * Starts exporting on a daemon thread of its own, {@code toolboundary-export}: rounds back to back
     * while there is work, one per poll interval when there is none, and after a failure a back-off that
     * doubles up to its maximum. {@link #close()} stops it.
     *
     * @return this exporter
     * @throws IllegalStateException when it was started or closed before
     */
    public synchronized RecordExporter start() {
        if (worker != null || stop.getCount() == 0) {
            throw new IllegalStateException("an exporter starts once");
        }
        worker = new Thread(this::run, "toolboundary-export");
        worker.setDaemon(true);
        worker.start();
        return this;
    }

    private void run() {
        Duration failedPause = backoff.min();
        while (stop.getCount() > 0) {
            Duration pause;
            try {
                Either<Failure, Round> round = exportOnce();
                if (round.isLeft()) {
                    pause = failedPause;
                    failedPause = backoff.after(failedPause);
                } else {
                    failedPause = backoff.min();
                    pause = round.get().exported() + round.get().lost() == 0 ? pollInterval : Duration.ZERO;
                }
            } catch (RuntimeException bug) {
                // A sink or store that broke its contract: count it and keep the entries for later.
                failed(new Failure(Stage.DATABASE, "unexpected " + bug.getClass().getName()));
                pause = backoff.max();
            }
            try {
                if (!pause.isZero() && stop.await(pause.toMillis(), TimeUnit.MILLISECONDS)) {
                    return;
                }
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Stops the thread {@link #start()} started, after its current round, waiting up to 30 seconds. */
    @Override
    public void close() {
        Thread running;
        synchronized (this) {
            stop.countDown();
            running = worker;
        }
        if (running != null) {
            try {
                running.join(TimeUnit.SECONDS.toMillis(30));
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** {@return the counts so far, the backlog last measured, and the last failure if the last round failed} */
    public Stats stats() {
        return new Stats(exported.get(), lost.get(), failures.get(), lastBacklog.get(), lastFailure.get());
    }

    /** {@return the consumer name this exporter takes outbox entries under} */
    public String consumer() {
        return consumer;
    }

    /** {@return the clock lag is measured by} */
    public Clock clock() {
        return clock;
    }

    /** Where a round stopped. */
    public enum Stage {
        /** Reading or acknowledging the outbox. */
        OUTBOX,
        /** Reading a record from the store. */
        STORE,
        /** Writing to the audit database. */
        DATABASE
    }

    /**
     * Why a round stopped; its entries are kept and tried again.
     *
     * @param stage where it stopped
     * @param reason a short, safe description: a failure kind or a database's codes, never a value
     */
    public record Failure(Stage stage, String reason) {
        /**
         * A failure.
         *
         * @param stage where it stopped
         * @param reason a short, safe description
         */
        public Failure {
            requireNonNull(stage, "stage is null");
            requireNonNull(reason, "reason is null");
        }
    }

    /**
     * What one round did.
     *
     * @param exported records written (or found written before) and acknowledged
     * @param lost entries whose records had expired before they were reached, acknowledged and counted
     */
    public record Round(int exported, int lost) {
    }

    /**
     * An exporter's counts since it was built.
     *
     * @param exported records exported
     * @param lost records found expired before export
     * @param failures rounds that stopped on a failure
     * @param backlog the outbox's backlog as last measured, after each round; none before one
     * @param lastFailure the failure of the last round, none when it succeeded
     */
    public record Stats(long exported, long lost, long failures, Option<OutboxBacklog> backlog,
            Option<Failure> lastFailure) {
    }

    /** Builds an exporter; each setter rejects an invalid value at once, naming it. */
    public static final class Builder {
        private final CanonicalInvocationStore store;
        private final AuditSink sink;
        private String consumer = "exporter-" + ProcessHandle.current().pid() + "-"
                + UUID.randomUUID().toString().substring(0, 8);
        private int batchSize = 100;
        private Duration claimIdle = Duration.ofSeconds(30);
        private Duration storeTimeout = Duration.ofSeconds(5);
        private Duration pollInterval = Duration.ofMillis(500);
        private Backoff backoff = Backoff.DEFAULT;
        private RawResponsePolicy rawPolicy = RawResponsePolicy.MASK;
        private final Map<ToolName, RawResponsePolicy> rawPolicies = new HashMap<>();
        private Clock clock = Clock.systemUTC();

        private Builder(CanonicalInvocationStore store, AuditSink sink) {
            this.store = store;
            this.sink = sink;
        }

        /**
         * The name this exporter takes entries under; unique per running exporter. By default
         * {@code exporter-<pid>-<random>}.
         *
         * @param name 1 to 64 of {@code [A-Za-z0-9_.:-]}
         * @return this builder
         */
        public Builder consumer(String name) {
            requireNonNull(name, "consumer is null");
            if (!CONSUMER.matcher(name).matches()) {
                throw new IllegalArgumentException("consumer must be 1 to 64 of [A-Za-z0-9_.:-], was " + name);
            }
            this.consumer = name;
            return this;
        }

        /**
         * The most records per round, written in one transaction; 100 by default.
         *
         * @param size 1 to 10,000
         * @return this builder
         */
        public Builder batchSize(int size) {
            if (size < 1 || size > 10_000) {
                throw new IllegalArgumentException("batchSize must be 1 to 10000, was " + size);
            }
            this.batchSize = size;
            return this;
        }

        /**
         * How long an entry taken by an exporter stays unacknowledged before another exporter (or this one,
         * restarted) takes it over; 30 seconds by default. Longer than a round can take.
         *
         * @param idle positive
         * @return this builder
         */
        public Builder claimIdle(Duration idle) {
            this.claimIdle = Backoff.positive(idle, "claimIdle");
            return this;
        }

        /**
         * The timeout of each outbox and store operation; 5 seconds by default.
         *
         * @param timeout positive
         * @return this builder
         */
        public Builder storeTimeout(Duration timeout) {
            this.storeTimeout = Backoff.positive(timeout, "storeTimeout");
            return this;
        }

        /**
         * How long the background thread waits after a round that found nothing; 500 ms by default.
         *
         * @param interval positive
         * @return this builder
         */
        public Builder pollInterval(Duration interval) {
            this.pollInterval = Backoff.positive(interval, "pollInterval");
            return this;
        }

        /**
         * The background thread's back-off after a failed round: from {@code min}, doubling up to
         * {@code max}; 200 ms to 30 s by default.
         *
         * @param min positive
         * @param max at least {@code min}
         * @return this builder
         */
        public Builder backoff(Duration min, Duration max) {
            this.backoff = new Backoff(min, max);
            return this;
        }

        /**
         * What is written of raw responses, for every tool without a policy of its own; {@link RawResponsePolicy#MASK} by default.
         *
         * @param policy the policy
         * @return this builder
         */
        public Builder rawResponses(RawResponsePolicy policy) {
            this.rawPolicy = requireNonNull(policy, "policy is null");
            return this;
        }

        /**
         * What is written of one tool's raw responses.
         *
         * @param tool the tool
         * @param policy the policy
         * @return this builder
         */
        public Builder rawResponses(ToolName tool, RawResponsePolicy policy) {
            rawPolicies.put(requireNonNull(tool, "tool is null"), requireNonNull(policy, "policy is null"));
            return this;
        }

        /**
         * The clock the backlog's lag is measured by; the system UTC clock by default.
         *
         * @param clock the clock
         * @return this builder
         */
        public Builder clock(Clock clock) {
            this.clock = requireNonNull(clock, "clock is null");
            return this;
        }

        /**
         * {@return the exporter}
         *
         * @throws IllegalArgumentException when the store was built without its outbox (export off)
         */
        public RecordExporter build() {
            RecordOutbox outbox = store.outbox().getOrElseThrow(() -> new IllegalArgumentException(
                    "the store was built with export off: turn its outbox on to export its records"));
            return new RecordExporter(this, outbox);
        }
    }
}
