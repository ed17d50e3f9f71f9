package io.toolboundary.demo;

import static java.util.Objects.requireNonNull;

import io.toolboundary.domain.RunId;
import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * How an operator finds a run's records and state in Redis after the demo: the key prefix, the run id,
 * the key layout and ready-to-paste {@code redis-cli} commands. The commands never carry a credential: a URL
 * with a password turns into {@code --askpass}.
 *
 * @param keyPrefix the store's key prefix
 * @param address the server as {@code host:port}, without credentials
 * @param cli the {@code redis-cli} invocation that reaches the server (for a cluster, with {@code -c})
 * @param ttl the records' time to live, set once at creation
 */
record RedisInspection(String keyPrefix, String address, String cli, Duration ttl) {

    /** The tool call whose record the example commands show. */
    static final String EXAMPLE_TOOL_CALL_ID = "call_01";

    RedisInspection {
        requireNonNull(keyPrefix, "keyPrefix is null");
        requireNonNull(address, "address is null");
        requireNonNull(cli, "cli is null");
        requireNonNull(ttl, "ttl is null");
    }

    /**
     * An inspection of the server a URL names.
     *
     * @param url the {@code redis://} or {@code rediss://} URL the store was opened with (for a cluster,
     *     the first seed)
     * @param cluster true for a Redis Cluster: {@code redis-cli -c} follows its redirections
     */
    static RedisInspection of(String url, boolean cluster, String keyPrefix, Duration ttl) {
        URI uri = URI.create(url.strip());
        StringBuilder cli = new StringBuilder("redis-cli");
        if (cluster) {
            cli.append(" -c");
        }
        String host = uri.getHost().startsWith("[") ? uri.getHost().substring(1, uri.getHost().length() - 1) : uri.getHost();
        int port = uri.getPort() < 0 ? 6379 : uri.getPort();
        cli.append(" -h ").append(host).append(" -p ").append(port);
        if ("rediss".equals(uri.getScheme())) {
            cli.append(" --tls");
        }
        String userInfo = uri.getRawUserInfo();
        if (userInfo != null && !userInfo.isEmpty()) {
            int colon = userInfo.indexOf(':');
            if (colon > 0) {
                cli.append(" --user ").append(userInfo, 0, colon);
            }
            cli.append(" --askpass");
        }
        return new RedisInspection(keyPrefix, uri.getHost() + ":" + port, cli.toString(), ttl);
    }

    /** The key of a record: {@code <prefix>:{<runId>}:call:<toolCallId>}. */
    String recordKey(RunId runId, String toolCallId) {
        return runKeys(runId) + ":call:" + toolCallId;
    }

    /** The lines printed after the run. */
    List<String> lines(RunId runId) {
        String example = recordKey(runId, EXAMPLE_TOOL_CALL_ID);
        return List.of(
                "Records left in Redis for inspection (each expires " + hours(ttl)
                        + " after creation; reads never refresh it):",
                "  key prefix  " + keyPrefix,
                "  run id      " + runId.value(),
                "  keys        " + runKeys(runId) + ":call:<tool_call_id> (string, one per record),",
                "              " + runKeys(runId) + ":run (hash: the run's token and budget counters)",
                "  inspect a record (a head line, then its values) and its remaining TTL in milliseconds:",
                "    " + cli + " GET '" + example + "'",
                "    " + cli + " PTTL '" + example + "'",
                "  inspect the run's state (without it, every later call of the run gets RUN_STATE_LOST):",
                "    " + cli + " HGETALL '" + runKeys(runId) + ":run'");
    }

    private String runKeys(RunId runId) {
        return keyPrefix + ":{" + runId.value() + "}";
    }

    /** A duration for the output: {@code 24 h} for whole hours. */
    static String hours(Duration ttl) {
        return ttl.toMinutes() % 60 == 0 && ttl.toSeconds() % 60 == 0 ? ttl.toHours() + " h" : ttl.toString();
    }
}
