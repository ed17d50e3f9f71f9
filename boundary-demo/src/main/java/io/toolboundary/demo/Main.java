package io.toolboundary.demo;

import static java.util.Objects.requireNonNull;

import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.adapter.redis.RedisCanonicalInvocationStore;
import io.toolboundary.adapter.redis.RedisCanonicalInvocationStoreFactory;
import io.toolboundary.adapter.redis.RedisStoreOptions;
import io.toolboundary.adapter.redis.RedisStoreOptions.EvictionPolicyCheck;
import io.toolboundary.adapter.redis.RedisStoreUnavailableException;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.demo.CommandLine.StoreOption;
import io.toolboundary.domain.RunId;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * The demo's entry point: plays the scripted triage run on a fresh run id on the store the command line names,
 * and answers {@value #EXIT_OK}, {@value #EXIT_FAILED} or {@value #EXIT_USAGE}. A failure is one line on
 * standard error, never a stack trace.
 */
public final class Main {

    /** Every step ended as scripted. */
    public static final int EXIT_OK = 0;
    /**
     * The store could not be opened, could not open the run or failed during it, or a step ended otherwise
     * than scripted.
     */
    public static final int EXIT_FAILED = 1;
    /** Bad options. */
    public static final int EXIT_USAGE = 2;

    private static final String NAME = "boundary-demo";

    private Main() {
    }

    /** Runs the demo and exits with its code. Output is UTF-8. */
    public static void main(String[] args) {
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        int code = run(args, out, err);
        out.flush();
        err.flush();
        System.exit(code);
    }

    /**
     * {@return the exit code of the demo, run in this process}
     *
     * @param args the command line
     * @param out where the run is printed
     * @param err where usage errors and failures are printed
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        requireNonNull(args, "args is null");
        requireNonNull(out, "out is null");
        requireNonNull(err, "err is null");
        Either<String, CommandLine> parsed = CommandLine.parse(args);
        if (parsed.isLeft()) {
            err.println(NAME + ": " + parsed.getLeft());
            err.print(CommandLine.USAGE);
            return EXIT_USAGE;
        }
        CommandLine commandLine = parsed.get();
        if (commandLine.help()) {
            out.print(CommandLine.USAGE);
            return EXIT_OK;
        }
        Clock clock = Clock.systemUTC();
        Either<String, OpenedStore> opened = openStore(commandLine, clock);
        if (opened.isLeft()) {
            err.println(NAME + ": " + opened.getLeft());
            return EXIT_FAILED;
        }
        try (OpenedStore store = opened.get()) {
            RunId runId = freshRunId();
            TriageScript script = TriageScript.create(store.store(), store.name(), runId, clock);
            boolean asScripted;
            try {
                asScripted = script.play(out);
            } catch (StoreFailed failed) {
                out.println();
                err.println(NAME + ": " + failed.getMessage());
                return EXIT_FAILED;
            }
            store.inspection().forEach(inspection -> {
                out.println();
                inspection.lines(runId).forEach(out::println);
            });
            boolean cited = CitationStep.print(script.boundary(), runId, out, err);
            boolean audited = AuditStep.print(store.store(), runId, out, err);
            return asScripted && cited && audited ? EXIT_OK : EXIT_FAILED;
        }
    }

    /** {@return the store the command line names, opened, or one line saying why it could not be opened} */
    static Either<String, OpenedStore> openStore(CommandLine commandLine, Clock clock) {
        requireNonNull(commandLine, "commandLine is null");
        requireNonNull(clock, "clock is null");
        StoreOption option = commandLine.store();
        if (option instanceof StoreOption.Redis redis) {
            return openRedis(commandLine, "--redis", redis.uri(), false);
        }
        if (option instanceof StoreOption.RedisCluster cluster) {
            return openRedis(commandLine, "--redis-cluster", cluster.uri(), true);
        }
        return Either.right(new OpenedStore(InMemoryCanonicalInvocationStore.custom().clock(clock).outbox(10_000).build(),
                "in-memory (InMemoryCanonicalInvocationStore, records lost when the process ends)", Option.none(),
                () -> { }));
    }

    private static Either<String, OpenedStore> openRedis(CommandLine commandLine, String option, String urls,
            boolean cluster) {
        RedisStoreOptions options = RedisStoreOptions.custom()
                .evictionPolicyCheck(commandLine.allowEviction() ? EvictionPolicyCheck.WARN : EvictionPolicyCheck.REFUSE)
                .outbox(cluster ? RedisStoreOptions.Outbox.NONE : RedisStoreOptions.Outbox.KEYS)
                .build();
        List<String> seeds = List.of(urls.split(",", -1));
        RedisCanonicalInvocationStore store;
        try {
            store = cluster
                    ? RedisCanonicalInvocationStoreFactory.connectCluster(seeds, options)
                    : RedisCanonicalInvocationStoreFactory.connectStandalone(urls, options);
        } catch (IllegalArgumentException badAddress) {
            return Either.left(option + ": " + badAddress.getMessage());
        } catch (RedisStoreUnavailableException unavailable) {
            return Either.left(unavailable.getMessage());
        } catch (IllegalStateException mayEvict) {
            // The factory's one other refusal: a master whose maxmemory-policy is not noeviction.
            return Either.left("refusing to run: " + mayEvict.getMessage()
                    + " For this demo: redis-cli CONFIG SET maxmemory-policy noeviction, or pass --allow-eviction.");
        }
        Duration ttl = ToolBoundaryConfig.ofDefaults().recordTtl();
        RedisInspection inspection = RedisInspection.of(seeds.get(0), cluster, options.keyPrefix(), ttl);
        String where = (cluster ? "Redis Cluster via " : "Redis at ") + inspection.address();
        String name = where + " (RedisCanonicalInvocationStore, key prefix " + options.keyPrefix()
                + "; records stay after the run and expire " + RedisInspection.hours(ttl) + " after creation"
                + (commandLine.allowEviction() ? "; eviction check: warn only" : "") + ")";
        return Either.right(new OpenedStore(store, name, Option.some(inspection), store::close));
    }

    /** A run id no earlier run of the demo used: {@code triage-} and eight random hex digits. */
    static RunId freshRunId() {
        return new RunId("triage-" + UUID.randomUUID().toString().substring(0, 8));
    }

    /**
     * A store opened for one run, named in the output, with how to find its records afterwards (for a store that
     * keeps them) and what releases it (a Redis client's connections).
     */
    record OpenedStore(CanonicalInvocationStore store, String name, Option<RedisInspection> inspection,
            Runnable closer) implements AutoCloseable {
        OpenedStore {
            requireNonNull(store, "store is null");
            requireNonNull(name, "name is null");
            requireNonNull(inspection, "inspection is null");
            requireNonNull(closer, "closer is null");
        }

        @Override
        public void close() {
            closer.run();
        }
    }

    /** The store answered a harness read with an error code; the run cannot go on. */
    static final class StoreFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        StoreFailed(String message) {
            super(message, null, false, false);
        }
    }
}
