package io.toolboundary.testsupport.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * Real Redis for tests, one standalone server and one 3-master cluster per JVM, started on first use and
 * stopped at JVM exit; a plain singleton so any test class can share them (each test should use its own keys).
 *
 * <p>The standalone server: {@code REDIS_URL} ({@code redis://[:password@]host:port}) when set, else a
 * Testcontainers {@code redis:7-alpine} when Docker answers, else a {@code redis-server} from the PATH. The
 * cluster: {@code REDIS_CLUSTER_NODES} ({@code host:port,...}) when set, else three {@code redis-server}
 * processes joined by {@code redis-cli --cluster create}. When no Redis can be had, the call throws
 * {@link IllegalStateException}: tests fail, never skip.
 */
public final class RedisServerFixture {

    /** The environment variable naming an existing standalone server. */
    public static final String REDIS_URL = "REDIS_URL";
    /** The environment variable listing an existing cluster's masters as {@code host:port,host:port,...}. */
    public static final String REDIS_CLUSTER_NODES = "REDIS_CLUSTER_NODES";
    /** The image used when Docker is available. */
    public static final String REDIS_IMAGE = "redis:7-alpine";

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);
    private static final LocalRedisProcesses PROCESSES = new LocalRedisProcesses();
    private static final List<Runnable> AT_EXIT = new ArrayList<>();

    private static ConnectedDeployment standalone;
    private static ConnectedDeployment cluster;
    private static IllegalStateException standaloneFailure;
    private static IllegalStateException clusterFailure;
    private static boolean hookInstalled;

    private RedisServerFixture() {
    }

    /**
     * The shared standalone server, started on first call.
     *
     * @throws IllegalStateException when no Redis can be had
     */
    public static synchronized RedisDeployment standalone() {
        if (standalone == null && standaloneFailure == null) {
            try {
                standalone = new ConnectedDeployment(false, List.of(startStandalone(System.getenv())));
                atExit(standalone::close);
            } catch (RuntimeException failure) {
                standaloneFailure = unavailable("a standalone Redis", failure);
            }
        }
        if (standaloneFailure != null) {
            throw new IllegalStateException(standaloneFailure.getMessage(), standaloneFailure);
        }
        return standalone;
    }

    /**
     * The shared 3-master cluster, started on first call (about three seconds).
     *
     * @throws IllegalStateException when no cluster can be had
     */
    public static synchronized RedisDeployment cluster() {
        if (cluster == null && clusterFailure == null) {
            try {
                cluster = new ConnectedDeployment(true, startCluster(System.getenv()));
                atExit(cluster::close);
            } catch (RuntimeException failure) {
                clusterFailure = unavailable("a Redis cluster", failure);
            }
        }
        if (clusterFailure != null) {
            throw new IllegalStateException(clusterFailure.getMessage(), clusterFailure);
        }
        return cluster;
    }

    /**
     * A new 3-master cluster of {@code redis-server} processes for one test that disturbs it (about three seconds);
     * the caller closes it (JVM exit at the latest). Needs {@code redis-server} and {@code redis-cli}, also when
     * {@value #REDIS_CLUSTER_NODES} is set.
     */
    public static OwnCluster ownCluster() {
        if (LocalRedisProcesses.serverExecutable().isEmpty() || LocalRedisProcesses.cliExecutable().isEmpty()) {
            throw new IllegalStateException("Tests need a cluster of their own and none could be had (no redis-server"
                    + " and redis-cli on the PATH); a missing Redis fails the run, it is never skipped.");
        }
        OwnCluster own = OwnCluster.start();
        atExit(own::close);
        return own;
    }

    private static RedisEndpoint startStandalone(Map<String, String> environment) {
        String url = environment.get(REDIS_URL);
        if (url != null && !url.isBlank()) {
            RedisEndpoint endpoint = RedisEndpoint.parse(url);
            LocalRedisProcesses.awaitTrue(() -> LocalRedisProcesses.answersPing(endpoint), READY_TIMEOUT,
                    "PING on " + REDIS_URL);
            return endpoint;
        }
        if (dockerAvailable()) {
            return startContainer();
        }
        if (LocalRedisProcesses.serverExecutable().isPresent()) {
            installHook();
            return PROCESSES.startStandalone();
        }
        throw new IllegalStateException("no " + REDIS_URL + ", no Docker engine and no redis-server on the PATH");
    }

    private static List<RedisEndpoint> startCluster(Map<String, String> environment) {
        String nodes = environment.get(REDIS_CLUSTER_NODES);
        if (nodes != null && !nodes.isBlank()) {
            List<RedisEndpoint> masters = new ArrayList<>();
            for (String node : nodes.split(",")) {
                masters.add(RedisEndpoint.parse("redis://" + node.trim()));
            }
            return List.copyOf(masters);
        }
        if (LocalRedisProcesses.serverExecutable().isPresent() && LocalRedisProcesses.cliExecutable().isPresent()) {
            installHook();
            return PROCESSES.startCluster();
        }
        throw new IllegalStateException("no " + REDIS_CLUSTER_NODES + " and no redis-server and redis-cli on the PATH");
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError noDocker) {
            return false;
        }
    }

    private static RedisEndpoint startContainer() {
        GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse(REDIS_IMAGE))
                .withExposedPorts(6379)
                .withCommand("redis-server", "--save", "", "--appendonly", "no");
        container.start();
        atExit(container::stop);
        RedisEndpoint endpoint = RedisEndpoint.of(container.getHost(), container.getMappedPort(6379));
        LocalRedisProcesses.awaitTrue(() -> LocalRedisProcesses.answersPing(endpoint), READY_TIMEOUT,
                "PING on the Redis container");
        return endpoint;
    }

    private static IllegalStateException unavailable(String what, RuntimeException cause) {
        return new IllegalStateException("Tests need " + what + " and none could be had (" + cause.getMessage()
                + "). Set " + REDIS_URL + " / " + REDIS_CLUSTER_NODES + ", start Docker, or install redis-server;"
                + " a missing Redis fails the run, it is never skipped.", cause);
    }

    private static synchronized void atExit(Runnable action) {
        installHook();
        AT_EXIT.add(action);
    }

    private static synchronized void installHook() {
        if (!hookInstalled) {
            Runtime.getRuntime().addShutdownHook(new Thread(RedisServerFixture::stopEverything, "redis-fixture-stop"));
            hookInstalled = true;
        }
    }

    private static void stopEverything() {
        List<Runnable> actions;
        synchronized (RedisServerFixture.class) {
            actions = List.copyOf(AT_EXIT);
            AT_EXIT.clear();
        }
        for (Runnable action : actions) {
            try {
                action.run();
            } catch (RuntimeException ignored) {
                // Stopping goes on for the rest.
            }
        }
        PROCESSES.stopAll();
    }
}
