package io.toolboundary.adapter.redis;

/**
 * Thrown by the factory's {@code connect…} methods when no working connection to the named Redis
 * servers could be made: nothing listens there, the host is unknown, no reply came in time, the
 * servers refused the credentials, or the deployment is not of the kind asked for (a standalone server
 * given as a cluster seed, say). The message names the servers by host and port only, never a
 * credential, and carries no text of the client library; nothing was created.
 */
public final class RedisStoreUnavailableException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    RedisStoreUnavailableException(String message) {
        super(message);
    }
}
