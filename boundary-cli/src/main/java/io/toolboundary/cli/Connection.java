package io.toolboundary.cli;

import io.toolboundary.adapter.redis.RedisCanonicalInvocationStore;
import io.toolboundary.adapter.redis.RedisCanonicalInvocationStoreFactory;
import io.toolboundary.adapter.redis.RedisOperatorView;
import io.toolboundary.adapter.redis.RedisStoreOptions;
import io.toolboundary.adapter.redis.RedisStoreUnavailableException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The options every command shares: where Redis is, how to authenticate, and the store's key prefix. The
 * password comes from {@code TOOLBOUNDARY_REDIS_PASSWORD} or a prompt that never echoes; it is never
 * printed, and neither is a URL's user information.
 */
public final class Connection {

    /** The environment variable the password is read from. */
    public static final String PASSWORD_VARIABLE = "TOOLBOUNDARY_REDIS_PASSWORD";

    @Option(names = "--redis", paramLabel = "URL", required = true,
            description = "redis://host:port (a cluster seed with --redis-cluster, a sentinel with --sentinel); repeatable")
    private List<String> urls = new ArrayList<>();

    @Option(names = "--redis-cluster", description = "the URLs are seeds of a Redis Cluster")
    private boolean cluster;

    @Option(names = "--sentinel", paramLabel = "MASTER", description = "the URLs are sentinels monitoring MASTER")
    private String sentinelMaster;

    @Option(names = "--password", description = "prompt for the Redis password (never echoed); else it is read from "
            + PASSWORD_VARIABLE)
    private boolean promptPassword;

    @Option(names = "--prefix", defaultValue = RedisStoreOptions.DEFAULT_KEY_PREFIX,
            description = "the store's key prefix (default: ${DEFAULT-VALUE})")
    private String prefix;

    @Option(names = "--timeout", defaultValue = "PT5S", description = "the longest each Redis call may take (default: ${DEFAULT-VALUE})")
    private Duration timeout;

    /** Creates the options; picocli fills them. */
    public Connection() {
    }

    /** Redis could not be reached or used; its message names no credential. */
    static final class UnreachableException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UnreachableException(String message) {
            super(message);
        }
    }

    /** The store and its operator view, open until closed. */
    record Opened(RedisCanonicalInvocationStore store, RedisOperatorView view) implements AutoCloseable {
        @Override
        public void close() {
            store.close();
        }
    }

    /** The longest each Redis call may take. */
    Duration timeout() {
        return timeout;
    }

    /** Whether the URLs are seeds of a Redis Cluster (which refuses export). */
    boolean cluster() {
        return cluster;
    }

    /** Connects with export off; refuses nothing by eviction policy (doctor reports it). */
    Opened open() {
        return open(RedisStoreOptions.Outbox.NONE);
    }

    /**
     * Connects with export on ({@code Outbox.KEYS}) when the store's outbox stream exists, else off: a record
     * this process makes final then reaches the exporters like the application's own. Opening with export on
     * changes no record and no key; only a record made final appends to the outbox.
     */
    Opened openFollowingExport() {
        Opened plain = open();
        boolean exporting;
        try {
            exporting = !cluster && Outboxes.exists(plain.view());
        } catch (RuntimeException failed) {
            plain.close();
            throw failed;
        }
        if (!exporting) {
            return plain;
        }
        plain.close();
        return open(RedisStoreOptions.Outbox.KEYS);
    }

    /**
     * Connects with the outbox as given; refuses nothing by eviction policy (doctor reports it).
     *
     * @throws IllegalArgumentException when export is asked of a Redis Cluster, which refuses it
     */
    Opened open(RedisStoreOptions.Outbox outbox) {
        if (cluster && outbox != RedisStoreOptions.Outbox.NONE) {
            throw new IllegalArgumentException("Redis Cluster refuses export (one outbox stream cannot live in every"
                    + " run's slot): export from a standalone server or Sentinel");
        }
        if (cluster && sentinelMaster != null) {
            throw new IllegalArgumentException("--redis-cluster and --sentinel exclude each other");
        }
        Optional<String> password = password();
        List<String> withCredentials = urls.stream().map(url -> withPassword(url, password)).toList();
        RedisStoreOptions options = RedisStoreOptions.custom().keyPrefix(prefix)
                .evictionPolicyCheck(RedisStoreOptions.EvictionPolicyCheck.WARN)
                .outbox(outbox)
                .connectTimeout(timeout).responseTimeout(timeout).build();
        RedisCanonicalInvocationStore store;
        try {
            if (cluster) {
                store = RedisCanonicalInvocationStoreFactory.connectCluster(withCredentials, options);
            } else if (sentinelMaster != null) {
                store = RedisCanonicalInvocationStoreFactory.connectSentinel(sentinelMaster, withCredentials, options);
            } else {
                if (withCredentials.size() != 1) {
                    throw new IllegalArgumentException("a standalone server takes exactly one --redis");
                }
                store = RedisCanonicalInvocationStoreFactory.connectStandalone(withCredentials.get(0), options);
            }
        } catch (RedisStoreUnavailableException unavailable) {
            throw new UnreachableException(unavailable.getMessage());
        }
        return new Opened(store, RedisOperatorView.of(store, timeout));
    }

    private Optional<String> password() {
        if (promptPassword) {
            char[] typed = Environment.console().read("Redis password: ")
                    .orElseThrow(() -> new IllegalArgumentException("--password needs a console to read from"));
            return Optional.of(new String(typed));
        }
        return Optional.ofNullable(Environment.env().get(PASSWORD_VARIABLE)).filter(value -> !value.isEmpty());
    }

    /** The URL with the password as its user information, unless the URL carries credentials already. */
    private static String withPassword(String url, Optional<String> password) {
        if (password.isEmpty()) {
            return url;
        }
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException notAUri) {
            throw new IllegalArgumentException("--redis is not a URL");
        }
        if (uri.getRawUserInfo() != null || uri.getHost() == null) {
            return url;
        }
        String encoded = URLEncoder.encode(password.get(), StandardCharsets.UTF_8).replace("+", "%20");
        return uri.getScheme() + "://:" + encoded + "@" + uri.getRawAuthority();
    }

    /** The process's environment and console, set for the length of one run (tests give their own). */
    static final class Environment {
        private static volatile Map<String, String> env = Map.of();
        private static volatile Toolboundary.PasswordConsole console = Toolboundary.PasswordConsole.none();

        private Environment() {
        }

        static void set(Map<String, String> environment, Toolboundary.PasswordConsole passwordConsole) {
            env = Map.copyOf(environment);
            console = passwordConsole;
        }

        static void clear() {
            env = Map.of();
            console = Toolboundary.PasswordConsole.none();
        }

        static Map<String, String> env() {
            return env;
        }

        static Toolboundary.PasswordConsole console() {
            return console;
        }
    }
}
