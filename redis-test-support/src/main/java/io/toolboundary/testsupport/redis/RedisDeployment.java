package io.toolboundary.testsupport.redis;

import java.util.List;

/**
 * A running Redis, standalone or a cluster of masters, as a test sees it from outside the code under
 * test. Obtain one from {@link RedisServerFixture}.
 *
 * <p>Commands go through {@link RedisAdmin} connections that the deployment keeps open; they are thread-safe.
 */
public interface RedisDeployment {

    /** True for a Redis Cluster. */
    boolean isCluster();

    /** The server, or the cluster's masters; never empty. */
    List<RedisEndpoint> nodes();

    /**
     * Sends a command about one key ({@code command[1]}) to the server that owns the key; on a
     * cluster, {@code MOVED} replies are followed.
     *
     * @return the reply as {@link RedisAdmin#command} gives it
     * @throws RedisErrorReply when Redis answers with an error
     */
    Object call(String... command);

    /** Sends a command to every node (the server, or every master) and answers their replies in {@link #nodes()} order. */
    List<Object> callOnEveryNode(String... command);

    /** {@link #call} for an integer reply. */
    default long callLong(String... command) {
        Object reply = call(command);
        if (reply instanceof Long value) {
            return value;
        }
        throw new IllegalStateException("expected an integer reply to " + command[0] + ", got " + reply);
    }
}
