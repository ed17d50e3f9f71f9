package io.toolboundary.demo;

import static java.util.Objects.requireNonNull;

import io.vavr.control.Either;

/**
 * The demo's parsed command line: show the usage, or play the run on a chosen store; {@code allowEviction} lets a
 * Redis store run on a server whose {@code maxmemory-policy} is not {@code noeviction}.
 */
record CommandLine(boolean help, StoreOption store, boolean allowEviction) {

    /** What {@code --help} prints, and what a usage error prints after its reason. */
    static final String USAGE = String.join(System.lineSeparator(),
            "Usage: java -jar boundary-demo.jar [--in-memory | --redis redis://HOST:PORT"
                    + " | --redis-cluster redis://HOST:PORT] [--allow-eviction]",
            "",
            "Plays a scripted incident-triage agent run through the tool boundary and prints, for each",
            "step, what the agent sent, what it got back and the canonical record the harness keeps.",
            "",
            "  --in-memory                          the embedded in-memory store (default)",
            "  --redis redis://HOST:PORT            a standalone Redis server",
            "  --redis-cluster redis://HOST:PORT    a Redis Cluster, reached through one of its nodes",
            "                                       (several seeds: separate them with commas)",
            "  --allow-eviction                     run on a Redis whose maxmemory-policy is not",
            "                                       noeviction, with a warning (else the demo refuses)",
            "  -h, --help                           this text",
            "",
            "Addresses may carry credentials (redis://:PASSWORD@HOST:PORT, redis://USER:PASSWORD@HOST:PORT)",
            "and use TLS (rediss://); credentials are never printed. Each run uses a fresh run id; on Redis",
            "its records stay after the run (they expire 24 h after creation) and the demo prints the key",
            "prefix, the run id and a redis-cli command to inspect them.",
            "",
            "After the run, its final records are exported to an embedded H2 audit database and read back,",
            "as a reviewer would weeks later (docs/export.md). On a standalone Redis the store appends them",
            "to its outbox stream (<prefix>:outbox), which the export empties; a Redis Cluster refuses export.",
            "",
            "Redis must run with maxmemory-policy noeviction: under any other policy it may delete live",
            "records (each has a TTL, so volatile-* policies apply too). The demo checks every master and",
            "refuses to run otherwise; set it with 'redis-cli CONFIG SET maxmemory-policy noeviction', or",
            "pass --allow-eviction to run anyway.",
            "",
            "Exit codes: 0 every step ended as scripted; 1 the store could not be opened or failed, or a",
            "step did not end as scripted; 2 bad options.",
            "");

    CommandLine {
        requireNonNull(store, "store is null");
    }

    /** Where the canonical records are kept. */
    sealed interface StoreOption {

        /** The embedded store, in this process's memory. */
        record InMemory() implements StoreOption {
        }

        /** A standalone Redis server. */
        record Redis(String uri) implements StoreOption {
            public Redis {
                requireNonNull(uri, "uri is null");
            }
        }

        /** A Redis Cluster, reached through one of its nodes (or several, separated by commas). */
        record RedisCluster(String uri) implements StoreOption {
            public RedisCluster {
                requireNonNull(uri, "uri is null");
            }
        }
    }

    /** {@return the command line the arguments give, or the reason they are not one} */
    static Either<String, CommandLine> parse(String[] args) {
        requireNonNull(args, "args is null");
        boolean help = false;
        boolean allowEviction = false;
        StoreOption store = null;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            StoreOption chosen;
            switch (arg) {
                case "-h", "--help" -> {
                    help = true;
                    continue;
                }
                case "--allow-eviction" -> {
                    allowEviction = true;
                    continue;
                }
                case "--in-memory" -> chosen = new StoreOption.InMemory();
                case "--redis", "--redis-cluster" -> {
                    if (i + 1 >= args.length || !isRedisUri(args[i + 1])) {
                        return Either.left(arg + " needs a redis://HOST:PORT address");
                    }
                    String uri = args[++i];
                    chosen = arg.equals("--redis") ? new StoreOption.Redis(uri) : new StoreOption.RedisCluster(uri);
                }
                default -> {
                    return Either.left("unknown option: " + arg);
                }
            }
            if (store != null) {
                return Either.left("choose one store: --in-memory, --redis or --redis-cluster");
            }
            store = chosen;
        }
        StoreOption chosen = store == null ? new StoreOption.InMemory() : store;
        if (!help && allowEviction && chosen instanceof StoreOption.InMemory) {
            return Either.left("--allow-eviction applies to --redis and --redis-cluster only");
        }
        return Either.right(new CommandLine(help, chosen, allowEviction));
    }

    private static boolean isRedisUri(String value) {
        return (value.startsWith("redis://") || value.startsWith("rediss://")) && value.indexOf("://") + 3 < value.length();
    }
}
