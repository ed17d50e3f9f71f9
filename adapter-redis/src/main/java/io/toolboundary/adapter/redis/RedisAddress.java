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
     * @throws IllegalArgumentException naming the URL with its credentials masked, when it is not such a URL
     */
    static RedisAddress parse(String what, String url) {
        requireNonNull(url, what + " is null");
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException notAUri) {
            throw invalid(what, url);
        }
        String scheme = uri.getScheme();
        boolean known = "redis".equals(scheme) || "rediss".equals(scheme);
        String path = uri.getRawPath();
        if (!known || uri.getHost() == null || uri.getPort() == 0 || uri.getPort() > MAX_PORT
                || uri.getRawQuery() != null || uri.getRawFragment() != null
                || (path != null && !path.isEmpty() && !path.equals("/"))) {
            throw invalid(what, url);
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
                throw invalid(what, url);
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

    /** A URL for a message: its user information, if any, replaced by {@code ***}. */
    static String masked(String url) {
        int at = url.lastIndexOf('@');
        int scheme = url.indexOf("://");
        if (at < 0) {
            return url;
        }
        return (scheme >= 0 && scheme < at ? url.substring(0, scheme + 3) : "") + "***" + url.substring(at);
    }

    private static IllegalArgumentException invalid(String what, String url) {
        return new IllegalArgumentException(what + " must look like redis://[[user]:password@]host[:port]"
                + " or rediss://..., was '" + masked(url.strip()) + "'");
    }

    private static String decode(String text) {
        return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
    }
}
