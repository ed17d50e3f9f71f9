package io.toolboundary.testsupport.redis;

import static java.util.Objects.requireNonNull;

import io.vavr.control.Option;
import java.net.URI;

/**
 * Where one Redis server listens.
 *
 * @param host the host name or address
 * @param port the TCP port
 * @param password the password for {@code AUTH}, when the server needs one
 */
public record RedisEndpoint(String host, int port, Option<String> password) {

    public RedisEndpoint {
        requireNonNull(host, "host is null");
        requireNonNull(password, "password is null");
        if (host.isBlank()) {
            throw new IllegalArgumentException("host must not be blank");
        }
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("port must be 1 to 65535, was " + port);
        }
    }

    /** A server without a password. */
    public static RedisEndpoint of(String host, int port) {
        return new RedisEndpoint(host, port, Option.none());
    }

    /**
     * Reads {@code redis://[[user]:password@]host[:port]}; the port defaults to 6379.
     *
     * @throws IllegalArgumentException when the text is not such a URL
     */
    public static RedisEndpoint parse(String url) {
        requireNonNull(url, "url is null");
        URI uri = URI.create(url.trim());
        if (!"redis".equals(uri.getScheme()) || uri.getHost() == null) {
            throw new IllegalArgumentException("url must look like redis://host:port");
        }
        Option<String> password = Option.of(uri.getUserInfo())
                .map(info -> info.substring(info.indexOf(':') + 1))
                .filter(secret -> !secret.isEmpty());
        return new RedisEndpoint(uri.getHost(), uri.getPort() < 0 ? 6379 : uri.getPort(), password);
    }

    /** The server as a {@code redis://} URL, the form Redis clients accept, password included when there is one. */
    public String uri() {
        return "redis://" + password.map(p -> ":" + p + "@").getOrElse("") + host + ":" + port;
    }

    /** {@code host:port}. */
    public String hostAndPort() {
        return host + ":" + port;
    }

    @Override
    public String toString() {
        return "redis://" + hostAndPort();
    }
}
