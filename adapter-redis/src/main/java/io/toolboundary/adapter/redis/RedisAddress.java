package io.toolboundary.adapter.redis;

import static java.util.Objects.requireNonNull;

import io.vavr.control.Option;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * One server address given to the factory as {@code redis://[[user]:password@]host[:port]} (or
 * {@code rediss://} for TLS), split into the address the client dials and the credentials, so that
 * messages can name the server without ever naming a credential.
 *
 * @param tls true for {@code rediss://}
 * @param host the host name or address ({@code [..]} for IPv6)
 * @param port the TCP port, 6379 when the URL has none
 * @param username the user for {@code AUTH}, when the URL names one
 * @param password the password for {@code AUTH}, when the URL has one
 */
record RedisAddress(boolean tls, String host, int port, Option<String> username, Option<String> password) {

    static final int DEFAULT_PORT = 6379;
    private static final int MAX_PORT = 65_535;

    RedisAddress {
        requireNonNull(host, "host is null");
        requireNonNull(username, "username is null");
        requireNonNull(password, "password is null");
    }

    /**
     * Reads a URL.
     *
     * @param what how the caller's argument is named in a message, for example {@code redisUrl}
     * @throws IllegalArgumentException naming what is wrong and, where the URL shows them, at most its
     *     scheme, host and port: never its user information, path, query, parameters or anything else
     */
    static RedisAddress parse(String what, String url) {
        requireNonNull(url, what + " is null");
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException notAUri) {
            // The exception quotes the input; only its absence of a reason is passed on.
            throw invalid(what, "is not a URL", Option.none());
        }
        String scheme = uri.getScheme();
        if (!"redis".equals(scheme) && !"rediss".equals(scheme)) {
            throw invalid(what, "does not start with redis:// or rediss://", Option.none());
        }
        if (uri.getHost() == null) {
            throw invalid(what, "has no host (or a port or user information that cannot be read)", Option.none());
        }
        if (uri.getPort() == 0 || uri.getPort() > MAX_PORT) {
            throw invalid(what, "has a port out of range", Option.of(scheme + "://" + uri.getHost()));
        }
        String server = scheme + "://" + uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort());
        String path = uri.getRawPath();
        if (uri.getRawQuery() != null) {
            throw invalid(what, "has a query (credentials go in user:password@)", Option.of(server));
        }
        if (uri.getRawFragment() != null) {
            throw invalid(what, "has a fragment", Option.of(server));
        }
        if (path != null && !path.isEmpty() && !path.equals("/")) {
            throw invalid(what, "has a path (no database number or other path is supported)", Option.of(server));
        }
        Option<String> username = Option.none();
        Option<String> password = Option.none();
        String userInfo = uri.getRawUserInfo();
        if (userInfo != null) {
            int colon = userInfo.indexOf(':');
            try {
                String user = decode(colon < 0 ? "" : userInfo.substring(0, colon));
                String secret = decode(colon < 0 ? userInfo : userInfo.substring(colon + 1));
                username = Option.of(user).filter(u -> !u.isEmpty());
                password = Option.of(secret).filter(p -> !p.isEmpty());
            } catch (IllegalArgumentException badEscape) {
                throw invalid(what, "has user information with a broken percent-escape", Option.of(server));
            }
        }
        return new RedisAddress("rediss".equals(scheme), uri.getHost(), uri.getPort() < 0 ? DEFAULT_PORT : uri.getPort(),
                username, password);
    }

    /** The address as the client dials it, without credentials: {@code redis://host:port}. */
    String uri() {
        return (tls ? "rediss" : "redis") + "://" + hostAndPort();
    }

    /** {@code host:port}, the form messages use. */
    String hostAndPort() {
        return host + ":" + port;
    }

    /** True when both addresses carry the same credentials (or none). */
    boolean sameCredentials(RedisAddress other) {
        return username.equals(other.username) && password.equals(other.password);
    }

    @Override
    public String toString() {
        return uri();
    }

    /**
     * The refusal of a URL: what is wrong, and the scheme, host and port it names when they could be read;
     * nothing else of the URL, which may hold a password anywhere.
     */
    private static IllegalArgumentException invalid(String what, String problem, Option<String> server) {
        return new IllegalArgumentException(what + " must look like redis://[[user]:password@]host[:port]"
                + " or rediss://...; " + server.map(named -> "the URL for " + named).getOrElse("the URL")
                + " " + problem);
    }

    private static String decode(String text) {
        return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
    }
}
