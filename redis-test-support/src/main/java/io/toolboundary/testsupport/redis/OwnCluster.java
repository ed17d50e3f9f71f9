package io.toolboundary.testsupport.redis;

import java.util.List;

/**
 * A 3-master cluster of {@code redis-server} processes owned by one test that disturbs it (for example migrates a
 * slot), from {@link RedisServerFixture#ownCluster()}; {@link #close()} (or JVM exit) stops it.
 */
public final class OwnCluster implements RedisDeployment, AutoCloseable {

    private final LocalRedisProcesses processes;
    private final ConnectedDeployment deployment;

    private OwnCluster(LocalRedisProcesses processes, ConnectedDeployment deployment) {
        this.processes = processes;
        this.deployment = deployment;
    }

    static OwnCluster start() {
        LocalRedisProcesses processes = new LocalRedisProcesses();
        try {
            return new OwnCluster(processes, new ConnectedDeployment(true, processes.startCluster()));
        } catch (RuntimeException failure) {
            processes.stopAll();
            throw failure;
        }
    }

    @Override
    public boolean isCluster() {
        return true;
    }

    @Override
    public List<RedisEndpoint> nodes() {
        return deployment.nodes();
    }

    @Override
    public Object call(String... command) {
        return deployment.call(command);
    }

    @Override
    public List<Object> callOnEveryNode(String... command) {
        return deployment.callOnEveryNode(command);
    }

    /**
     * Sends a command to one master, without following redirects.
     *
     * @param node one of {@link #nodes()}
     * @throws RedisErrorReply when Redis answers with an error
     */
    public Object callOn(RedisEndpoint node, String... command) {
        if (!nodes().contains(node)) {
            throw new IllegalArgumentException("not a master of this cluster: " + node);
        }
        return deployment.callOn(node, command);
    }

    /** Closes the connections and stops the processes; safe to repeat. */
    @Override
    public void close() {
        deployment.close();
        processes.stopAll();
    }
}
