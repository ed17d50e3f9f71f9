package io.toolboundary.testsupport.redis;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A {@link RedisDeployment} over a fixed list of nodes, one cached connection per node. */
final class ConnectedDeployment implements RedisDeployment {

    private static final Duration REPLY_TIMEOUT = Duration.ofSeconds(10);
    private static final int MAX_REDIRECTS = 5;

    private final boolean cluster;
    private final List<RedisEndpoint> nodes;
    private final Map<String, RedisAdmin> connections = new ConcurrentHashMap<>();

    ConnectedDeployment(boolean cluster, List<RedisEndpoint> nodes) {
        this.cluster = cluster;
        this.nodes = List.copyOf(requireNonNull(nodes, "nodes is null"));
        if (this.nodes.isEmpty()) {
            throw new IllegalArgumentException("nodes must not be empty");
        }
    }

    @Override
    public boolean isCluster() {
        return cluster;
    }

    @Override
    public List<RedisEndpoint> nodes() {
        return nodes;
    }

    @Override
    public Object call(String... command) {
        RedisEndpoint target = nodes.get(0);
        for (int redirect = 0; ; redirect++) {
            try {
                return connection(target).command(command);
            } catch (RedisErrorReply error) {
                if (!cluster || !"MOVED".equals(error.kind()) || redirect >= MAX_REDIRECTS) {
                    throw error;
                }
                target = movedTo(error.getMessage(), target);
            }
        }
    }

    @Override
    public List<Object> callOnEveryNode(String... command) {
        List<Object> replies = new ArrayList<>(nodes.size());
        for (RedisEndpoint node : nodes) {
            replies.add(connection(node).command(command));
        }
        return List.copyOf(replies);
    }

    /** Sends a command to one node, without following redirects. */
    Object callOn(RedisEndpoint node, String... command) {
        return connection(node).command(command);
    }

    void close() {
        connections.values().forEach(RedisAdmin::close);
        connections.clear();
    }

    private RedisAdmin connection(RedisEndpoint endpoint) {
        return connections.computeIfAbsent(endpoint.hostAndPort(), ignored -> RedisAdmin.open(endpoint, REPLY_TIMEOUT));
    }

    /** Reads {@code MOVED <slot> <host>:<port>}. */
    private static RedisEndpoint movedTo(String reply, RedisEndpoint from) {
        String address = reply.substring(reply.lastIndexOf(' ') + 1);
        int colon = address.lastIndexOf(':');
        String host = colon > 0 ? address.substring(0, colon) : from.host();
        int port = Integer.parseInt(address.substring(colon + 1));
        return new RedisEndpoint(host, port, from.password());
    }
}
