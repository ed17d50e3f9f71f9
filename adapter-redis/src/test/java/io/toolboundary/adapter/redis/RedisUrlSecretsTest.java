package io.toolboundary.adapter.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.toolboundary.testsupport.redis.RedisServerFixture;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * No URL with a password, however it is malformed, comes back in what the factory throws: not in the
 * message, not in {@code toString()}, not in a cause or a suppressed exception. Each shape goes through
 * every public entry that takes an address; valid shapes point at a closed port (or, once, at a real
 * server with wrong credentials), so the connection failure is checked as well.
 */
class RedisUrlSecretsTest {

    /** Part of every password below, in the clear, so that no form of it may appear. */
    private static final String SECRET = "hunter2";
    private static final RedisStoreOptions OPTIONS = RedisStoreOptions.custom().keyPrefix(RedisTestServers.PREFIX)
            .connectTimeout(Duration.ofMillis(500)).build();

    private static int closedPort;

    @BeforeAll
    static void findAClosedPort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = probe.getLocalPort();
        }
    }

    /** Shapes of a URL that carry the password; the key says what shape it is. */
    private static Map<String, String> urlsWithAPassword() {
        String h = "127.0.0.1:" + closedPort;
        Map<String, String> urls = new LinkedHashMap<>();
        urls.put("password-only user information", "redis://:" + SECRET + "-pw@" + h);
        urls.put("user and password", "redis://admin:" + SECRET + "-pw@" + h);
        urls.put("TLS with user and password", "rediss://admin:" + SECRET + "-pw@" + h);
        urls.put("password in the query", "redis://" + h + "?password=" + SECRET + "-q");
        urls.put("password after another parameter", "redis://" + h + "?timeout=1&password=" + SECRET + "-amp");
        urls.put("password after &, no query", "redis://" + h + "&password=" + SECRET + "-amp");
        urls.put("comma parameters, no scheme", "127.0.0.1:6380,password=" + SECRET + "-comma");
        urls.put("comma parameters with scheme", "redis://127.0.0.1:6380,password=" + SECRET + "-comma");
        urls.put("an unescaped @ in the password", "redis://admin:" + SECRET + "@pw@" + h);
        urls.put("a percent-escaped password with a path", "redis://admin:" + SECRET + "%40pw@" + h + "/0");
        urls.put("a broken percent-escape", "redis://admin:" + SECRET + "%zzpw@" + h);
        urls.put("unix socket", "unix://:" + SECRET + "-sock@/var/run/redis.sock");
        urls.put("redis+socket", "redis+socket://:" + SECRET + "-sock@/tmp/redis.sock?db=0");
        urls.put("garbage around a password", "::" + SECRET + " password=" + SECRET + "-garbage ]] @@");
        urls.put("IPv6 with password", "redis://:" + SECRET + "-v6@[::1]:" + closedPort);
        urls.put("IPv6 with password in the query", "redis://[::1]:6379?password=" + SECRET + "-v6q");
        urls.put("missing port", "redis://:" + SECRET + "-noport@127.0.0.1:");
        urls.put("port out of range", "redis://:" + SECRET + "-port@127.0.0.1:70000");
        urls.put("port not a number", "redis://:" + SECRET + "-port@127.0.0.1:port");
        urls.put("trailing junk", "redis://:" + SECRET + "-junk@" + h + "/ junk " + SECRET);
        urls.put("fragment", "redis://" + h + "#password=" + SECRET + "-frag");
        urls.put("password as the scheme", SECRET + "://" + h);
        urls.put("surrounding whitespace and control characters", " \tredis://:" + SECRET + "\n-ws@" + h + " \u0000");
        return urls;
    }

    /** Every public entry of the factory that takes an address, each with the URL in a list position too. */
    private static Map<String, Function<String, RedisCanonicalInvocationStore>> entries() {
        String valid = "redis://127.0.0.1:" + closedPort;
        Map<String, Function<String, RedisCanonicalInvocationStore>> entries = new LinkedHashMap<>();
        entries.put("connectStandalone", url -> RedisCanonicalInvocationStoreFactory.connectStandalone(url, OPTIONS));
        entries.put("connectCluster, first seed",
                url -> RedisCanonicalInvocationStoreFactory.connectCluster(List.of(url), OPTIONS));
        entries.put("connectCluster, second seed",
                url -> RedisCanonicalInvocationStoreFactory.connectCluster(List.of(valid, url), OPTIONS));
        entries.put("connectSentinel, first sentinel",
                url -> RedisCanonicalInvocationStoreFactory.connectSentinel("mymaster", List.of(url), OPTIONS));
        entries.put("connectSentinel, second sentinel",
                url -> RedisCanonicalInvocationStoreFactory.connectSentinel("mymaster", List.of(valid, url), OPTIONS));
        return entries;
    }

    @Test
    void noEntryEchoesAPasswordInAnyShapeOfUrl() {
        List<String> leaks = new ArrayList<>();
        int refusals = 0;
        for (Map.Entry<String, String> shape : urlsWithAPassword().entrySet()) {
            boolean dialable = readable(shape.getValue());
            for (Map.Entry<String, Function<String, RedisCanonicalInvocationStore>> entry : entries().entrySet()) {
                if (dialable && entry.getKey().endsWith("first seed") || dialable && entry.getKey().endsWith("first sentinel")) {
                    // A sentinel or cluster client waits out its retries on a closed port; the message it
                    // gives is built as connectStandalone's is (host:port only), so one dial suffices.
                    continue;
                }
                Throwable thrown = refusal(entry.getValue(), shape.getValue());
                assertThat(thrown).as("%s with %s", entry.getKey(), shape.getKey())
                        .isInstanceOfAny(IllegalArgumentException.class, IllegalStateException.class);
                refusals++;
                leakIn(thrown).ifPresent(leak -> leaks.add(entry.getKey() + " with " + shape.getKey() + ": " + leak));
            }
        }

        assertThat(leaks).isEmpty();
        assertThat(refusals).isGreaterThanOrEqualTo(urlsWithAPassword().size() * (entries().size() - 2));
    }

    @Test
    void namesTheProblemAndAtMostSchemeHostAndPort() {
        assertThat(refusal(url -> RedisCanonicalInvocationStoreFactory.connectStandalone(url, OPTIONS),
                "redis://127.0.0.1:6379?password=" + SECRET))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("redisUrl must look like redis://[[user]:password@]host[:port] or rediss://...;"
                        + " the URL for redis://127.0.0.1:6379 has a query (credentials go in user:password@)");
        assertThat(refusal(url -> RedisCanonicalInvocationStoreFactory.connectStandalone(url, OPTIONS),
                "rediss://admin:" + SECRET + "@cache.example:6380/2"))
                .hasMessageEndingWith("the URL for rediss://cache.example:6380 has a path"
                        + " (no database number or other path is supported)");
        assertThat(refusal(url -> RedisCanonicalInvocationStoreFactory.connectCluster(List.of(url), OPTIONS),
                "host:6380,password=" + SECRET))
                .hasMessage("seedUrls element must look like redis://[[user]:password@]host[:port] or rediss://...;"
                        + " the URL does not start with redis:// or rediss://");
        assertThat(refusal(url -> RedisCanonicalInvocationStoreFactory.connectStandalone(url, OPTIONS),
                "redis://:" + SECRET + "@127.0.0.1:70000"))
                .hasMessageEndingWith("the URL for redis://127.0.0.1 has a port out of range");
        assertThat(refusal(url -> RedisCanonicalInvocationStoreFactory.connectStandalone(url, OPTIONS),
                "redis://127.0.0.1:6380,password=" + SECRET))
                .hasMessageEndingWith("the URL has no host (or a port or user information that cannot be read)");
    }

    @Test
    void aServerThatRefusesTheCredentialsIsNamedWithoutThem() {
        String server = RedisServerFixture.standalone().nodes().get(0).hostAndPort();

        Throwable refused = refusal(url -> RedisCanonicalInvocationStoreFactory.connectStandalone(url, OPTIONS),
                "redis://nobody-" + SECRET + ":" + SECRET + "-wrong@" + server);

        assertThat(refused).isInstanceOf(RedisStoreUnavailableException.class)
                .hasMessage("cannot connect to Redis at " + server + ": the server refused the credentials");
        assertThat(leakIn(refused)).isEmpty();
    }

    /** True when the URL is one the factory would dial (and then fail to reach). */
    private static boolean readable(String url) {
        try {
            RedisAddress.parse("url", url);
            return true;
        } catch (IllegalArgumentException refused) {
            return false;
        }
    }

    private static Throwable refusal(Function<String, RedisCanonicalInvocationStore> entry, String url) {
        Throwable thrown = catchThrowable(() -> entry.apply(url).close());
        assertThat(thrown).as("refused %s", url.replace(SECRET, "<secret>")).isNotNull();
        return thrown;
    }

    /** Where the secret shows in the exception, its causes or suppressed exceptions, if anywhere. */
    private static Optional<String> leakIn(Throwable thrown) {
        List<Throwable> seen = new ArrayList<>();
        List<Throwable> pending = new ArrayList<>(List.of(thrown));
        while (!pending.isEmpty()) {
            Throwable next = pending.remove(pending.size() - 1);
            if (seen.stream().anyMatch(done -> done == next)) {
                continue;
            }
            seen.add(next);
            for (String text : new String[] {next.getMessage(), next.getLocalizedMessage(), next.toString()}) {
                if (text != null && text.toLowerCase().contains(SECRET)) {
                    return Optional.of(next.getClass().getSimpleName() + " says '"
                            + text.replace(SECRET, "<secret>") + "'");
                }
            }
            if (next.getCause() != null) {
                pending.add(next.getCause());
            }
            pending.addAll(List.of(next.getSuppressed()));
        }
        StringWriter trace = new StringWriter();
        thrown.printStackTrace(new PrintWriter(trace));
        return trace.toString().contains(SECRET)
                ? Optional.of("the stack trace names it")
                : Optional.empty();
    }
}
