package io.toolboundary.demo;

import static java.util.Objects.requireNonNull;

import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.CanonicalInvocationStore;
import io.toolboundary.demo.CommandLine.StoreOption;
import io.toolboundary.domain.RunId;
import io.vavr.control.Either;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.UUID;

/**
 * The demo's entry point: parses the command line, opens the store, plays the scripted triage run on a
 * fresh run id, and answers with an exit code: {@value #EXIT_OK} when every step ended as scripted,
 * {@value #EXIT_NOT_AS_SCRIPTED} when one did not, {@value #EXIT_USAGE} for bad options or a store this
 * build cannot open.
 */
public final class Main {

    /** Every step ended as scripted. */
    public static final int EXIT_OK = 0;
    /** At least one step ended otherwise than scripted. */
    public static final int EXIT_NOT_AS_SCRIPTED = 1;
    /** Bad options, or a store that is not available. */
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
     * Runs the demo in this process.
     *
     * @param args the command line
     * @param out where the run is printed
     * @param err where usage errors are printed
     * @return the exit code
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
        Either<String, NamedStore> store = openStore(commandLine.store(), clock);
        if (store.isLeft()) {
            err.println(NAME + ": " + store.getLeft());
            return EXIT_USAGE;
        }
        TriageScript script = TriageScript.create(store.get().store(), store.get().name(), freshRunId(), clock);
        return script.play(out) ? EXIT_OK : EXIT_NOT_AS_SCRIPTED;
    }

    /**
     * The one place a store is made from the command line.
     *
     * @return the store and its name for the output, or why this build cannot open it
     */
    static Either<String, NamedStore> openStore(StoreOption option, Clock clock) {
        requireNonNull(option, "option is null");
        requireNonNull(clock, "clock is null");
        if (option instanceof StoreOption.Redis) {
            return Either.left("--redis: the Redis store is not available in this build (use --in-memory)");
        }
        if (option instanceof StoreOption.RedisCluster) {
            return Either.left("--redis-cluster: the Redis Cluster store is not available in this build"
                    + " (use --in-memory)");
        }
        return Either.right(new NamedStore(InMemoryCanonicalInvocationStore.create(clock),
                "in-memory (InMemoryCanonicalInvocationStore, records lost when the process ends)"));
    }

    /** A run id no earlier run of the demo used: {@code triage-} and eight random hex digits. */
    static RunId freshRunId() {
        return new RunId("triage-" + UUID.randomUUID().toString().substring(0, 8));
    }

    /**
     * A store and how the output names it.
     *
     * @param store the store
     * @param name its name for the output
     */
    record NamedStore(CanonicalInvocationStore store, String name) {
        NamedStore {
            requireNonNull(store, "store is null");
            requireNonNull(name, "name is null");
        }
    }
}
