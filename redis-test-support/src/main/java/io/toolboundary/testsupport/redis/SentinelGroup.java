package io.toolboundary.testsupport.redis;

import static java.util.Objects.requireNonNull;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A master, one replica (replicating through a {@link FaultProxy}) and two Sentinels, all {@code redis-server}
 * processes on loopback without persistence, for tests of what a failover loses: cut the link
 * ({@link #cutReplicationLink()}), write, {@link #killMaster()}, {@link #awaitFailover(Duration)}. The
 * sentinels reach master and replica directly, never through the proxy.
 *
 * <p>Timing makes one kill give one failover: the first sentinel declares the master down after
 * {@value #LEADER_DOWN_AFTER_MILLIS} ms, the second after {@value #FOLLOWER_DOWN_AFTER_MILLIS} ms, so they
 * never split the vote (quorum 1). {@code failover-timeout} is {@value #FAILOVER_TIMEOUT_MILLIS} ms because
 * after it a sentinel repoints the replica at the master itself, bypassing the proxy: a group lives less than
 * a minute, and {@link #cutReplicationLink()} refuses once that happened. Keep a cut under about ten seconds
 * before the kill, or no sentinel promotes the replica.
 *
 * <p>{@link #close()} (and JVM exit) stops everything and deletes the directories. The promoted replica
 * drops its clients: open a new {@link RedisAdmin} after the failover. Needs {@code redis-server}. Thread-safe.
 */
public final class SentinelGroup implements AutoCloseable {

    /** How long the first sentinel waits for a master that does not answer before it calls it down. */
    public static final int LEADER_DOWN_AFTER_MILLIS = 1_000;
    /** The same for the second sentinel, longer on purpose (see the class comment). */
    public static final int FOLLOWER_DOWN_AFTER_MILLIS = 5_000;
    /** Every sentinel's {@code failover-timeout} (see the class comment). */
    public static final int FAILOVER_TIMEOUT_MILLIS = 60_000;

    private static final String MASTER_NAME = "toolboundary";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration LINK_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(25);

    private final RedisServerProcess master;
    private final FaultProxy link;
    private final RedisServerProcess replica;
    private final List<RedisServerProcess> sentinels;
    private final List<RedisServerProcess> addedReplicas = new ArrayList<>();
    private boolean closed;

    private SentinelGroup(RedisServerProcess master, FaultProxy link, RedisServerProcess replica,
            List<RedisServerProcess> sentinels) {
        this.master = master;
        this.link = link;
        this.replica = replica;
        this.sentinels = List.copyOf(sentinels);
    }

    /**
     * Starts the master, proxy, replica and sentinels, and returns once the replica is in sync and each sentinel
     * knows the others (about two seconds; at most 20).
     */
    public static SentinelGroup start() {
        List<AutoCloseable> started = new ArrayList<>();
        try {
            // A master syncs a new replica at once, not after the default five seconds' wait for more replicas.
            RedisServerProcess master = RedisServerProcess.start(RedisServerProcess.Persistence.NONE,
                    List.of("--repl-diskless-sync-delay", "0"));
            started.add(master);
            FaultProxy link = FaultProxy.start(master.endpoint());
            started.add(link);
            RedisServerProcess replica = RedisServerProcess.start(RedisServerProcess.Persistence.NONE, List.of(
                    "--replicaof", link.endpoint().host(), Integer.toString(link.endpoint().port()),
                    "--replica-priority", "100"));
            started.add(replica);
            List<RedisServerProcess> sentinels = new ArrayList<>();
            for (int downAfter : new int[] {LEADER_DOWN_AFTER_MILLIS, FOLLOWER_DOWN_AFTER_MILLIS}) {
                RedisServerProcess sentinel = RedisServerProcess.startSentinel(sentinelConfig(master.endpoint(), downAfter));
                started.add(sentinel);
                sentinels.add(sentinel);
            }
            SentinelGroup group = new SentinelGroup(master, link, replica, sentinels);
            group.awaitReady();
            return group;
        } catch (RuntimeException failure) {
            for (int i = started.size() - 1; i >= 0; i--) {
                closeQuietly(started.get(i));
            }
            throw failure;
        }
    }

    /** The name the sentinels monitor the master under. */
    public String masterName() {
        return MASTER_NAME;
    }

    /** The sentinels, the leader first. */
    public List<RedisEndpoint> sentinels() {
        return sentinels.stream().map(RedisServerProcess::endpoint).toList();
    }

    /** The sentinels as {@code redis://host:port} URLs, for a client's sentinel mode (Redisson's {@code addSentinelAddress}). */
    public List<String> sentinelUrls() {
        return sentinels().stream().map(RedisEndpoint::uri).toList();
    }

    /** The first master, which {@link #killMaster()} kills. */
    public RedisEndpoint master() {
        return master.endpoint();
    }

    /** The replica, by its own address (not the proxy's); the master after a failover. */
    public RedisEndpoint replica() {
        return replica.endpoint();
    }

    /**
     * Cuts the replication link: the proxy resets the replica's connection and every reconnection, so the replica
     * receives no more writes. Refused once a sentinel pointed the replica at the master itself.
     */
    public synchronized void cutReplicationLink() {
        requireOpen();
        try (RedisAdmin admin = RedisAdmin.open(replica.endpoint(), COMMAND_TIMEOUT)) {
            String port = admin.info("replication", "master_port");
            if (!Integer.toString(link.endpoint().port()).equals(port)) {
                throw new IllegalStateException("the replica replicates from port " + port + ", not through the proxy on "
                        + link.endpoint().port() + ": a sentinel reconfigured it (the group outlived its failover timeout?)");
            }
        }
        link.mode(FaultProxy.Mode.REFUSE);
    }

    /** Restores the replication link and waits (10 seconds at most) until the replica is in sync again. */
    public synchronized void restoreReplicationLink() {
        requireOpen();
        link.mode(FaultProxy.Mode.PASS);
        awaitReplicaInSync(LINK_TIMEOUT);
    }

    /** True while the replication link is cut. */
    public boolean replicationLinkCut() {
        return link.mode() == FaultProxy.Mode.REFUSE;
    }

    /** Kills the master with {@code SIGKILL}; it has no persistence and is never restarted by the group. */
    public synchronized void killMaster() {
        requireOpen();
        master.kill();
    }

    /**
     * Starts a new, empty replica of the promoted master on a port of its own (never the killed master's address,
     * which clients that have not yet followed the sentinels may still try) and waits until its link is up: a
     * write that waits for one replica's acknowledgement is acknowledged again. Closed with the group.
     *
     * @param promoted the promoted master, as {@link #awaitFailover} gave it
     * @param timeout the longest wait
     * @throws IllegalStateException when it does not replicate in time
     */
    public synchronized void startReplicaOf(RedisEndpoint promoted, Duration timeout) {
        requireOpen();
        RedisServerProcess added = RedisServerProcess.start(RedisServerProcess.Persistence.NONE, List.of(
                "--replicaof", promoted.host(), Integer.toString(promoted.port())));
        addedReplicas.add(added);
        LocalRedisProcesses.awaitTrue(() -> replicates(added.endpoint()), timeout,
                "the new replica " + added.endpoint().hostAndPort() + " to replicate " + promoted.hostAndPort());
    }

    private static boolean replicates(RedisEndpoint server) {
        try (RedisAdmin admin = RedisAdmin.open(server, COMMAND_TIMEOUT)) {
            return "slave".equals(admin.role()) && "up".equals(admin.info("replication", "master_link_status"));
        } catch (RedisErrorReply | UncheckedIOException notYet) {
            return false;
        }
    }

    /**
     * Waits until both sentinels name the same new master (not the killed one) and that server answers
     * {@code ROLE} as a master.
     *
     * @param timeout the longest wait
     * @return the new master's address, as the sentinels give it
     * @throws IllegalStateException when the failover does not complete in time (with the sentinels' logs)
     */
    public RedisEndpoint awaitFailover(Duration timeout) {
        requireNonNull(timeout, "timeout is null");
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<RedisEndpoint> promoted = agreedMaster().filter(address -> !address.equals(master.endpoint()))
                    .filter(SentinelGroup::answersAsMaster);
            if (promoted.isPresent()) {
                return promoted.get();
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("no failover within " + timeout + ": " + sentinelLogs());
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
    }

    /** {@return the master both sentinels name now, or empty while they disagree or one does not answer} */
    public Optional<RedisEndpoint> agreedMaster() {
        RedisEndpoint agreed = null;
        for (RedisServerProcess sentinel : sentinels) {
            Optional<RedisEndpoint> named = masterNamedBy(sentinel.endpoint());
            if (named.isEmpty() || (agreed != null && !agreed.equals(named.get()))) {
                return Optional.empty();
            }
            agreed = named.get();
        }
        return Optional.ofNullable(agreed);
    }

    /** Stops the sentinels, the replica, the proxy and the master, and deletes their directories; safe to repeat. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        sentinels.forEach(SentinelGroup::closeQuietly);
        addedReplicas.forEach(SentinelGroup::closeQuietly);
        closeQuietly(replica);
        closeQuietly(link);
        closeQuietly(master);
    }

    @Override
    public String toString() {
        return "sentinel group '" + MASTER_NAME + "': master " + master.endpoint().hostAndPort() + ", replica "
                + replica.endpoint().hostAndPort() + " through " + link + ", sentinels " + sentinels();
    }

    private static List<String> sentinelConfig(RedisEndpoint master, int downAfterMillis) {
        return List.of(
                "sentinel monitor " + MASTER_NAME + " " + master.host() + " " + master.port() + " 1",
                "sentinel down-after-milliseconds " + MASTER_NAME + " " + downAfterMillis,
                "sentinel failover-timeout " + MASTER_NAME + " " + FAILOVER_TIMEOUT_MILLIS,
                "sentinel parallel-syncs " + MASTER_NAME + " 1");
    }

    private void awaitReady() {
        awaitReplicaInSync(READY_TIMEOUT);
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        for (RedisServerProcess sentinel : sentinels) {
            while (!knowsTheGroup(sentinel.endpoint())) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("the sentinels did not see the whole group within " + READY_TIMEOUT
                            + ": " + sentinelLogs());
                }
                LockSupport.parkNanos(POLL_NANOS);
            }
        }
    }

    /** The replica's link is up and the master lists it online at the master's own offset. */
    private void awaitReplicaInSync(Duration timeout) {
        LocalRedisProcesses.awaitTrue(this::replicaInSync, timeout, "the replica of " + this + " to be in sync");
    }

    private boolean replicaInSync() {
        try (RedisAdmin toMaster = RedisAdmin.open(master.endpoint(), COMMAND_TIMEOUT);
                RedisAdmin toReplica = RedisAdmin.open(replica.endpoint(), COMMAND_TIMEOUT)) {
            String offset = toMaster.info("replication", "master_repl_offset");
            return "up".equals(toReplica.info("replication", "master_link_status"))
                    && toMaster.info("replication", "slave0").contains("state=online,offset=" + offset + ",");
        } catch (RedisErrorReply | UncheckedIOException notYet) {
            return false;
        }
    }

    /** The sentinel names the master, knows the replica as connected and knows the other sentinel. */
    private boolean knowsTheGroup(RedisEndpoint sentinel) {
        try (RedisAdmin admin = RedisAdmin.open(sentinel, COMMAND_TIMEOUT)) {
            if (!Optional.of(master.endpoint()).equals(masterNamedBy(admin))) {
                return false;
            }
            List<Map<String, String>> replicas = entries(admin.command("SENTINEL", "REPLICAS", MASTER_NAME));
            boolean replicaSeen = replicas.stream().anyMatch(entry -> String.valueOf(replica.endpoint().port())
                    .equals(entry.get("port")) && "slave".equals(entry.get("flags")));
            return replicaSeen && entries(admin.command("SENTINEL", "SENTINELS", MASTER_NAME)).size() == sentinels.size() - 1;
        } catch (RedisErrorReply | UncheckedIOException notYet) {
            return false;
        }
    }

    private static Optional<RedisEndpoint> masterNamedBy(RedisEndpoint sentinel) {
        try (RedisAdmin admin = RedisAdmin.open(sentinel, COMMAND_TIMEOUT)) {
            return masterNamedBy(admin);
        } catch (RedisErrorReply | UncheckedIOException unanswered) {
            return Optional.empty();
        }
    }

    private static Optional<RedisEndpoint> masterNamedBy(RedisAdmin sentinel) {
        if (sentinel.command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME) instanceof List<?> address
                && address.size() == 2) {
            return Optional.of(RedisEndpoint.of(String.valueOf(address.get(0)), Integer.parseInt(String.valueOf(address.get(1)))));
        }
        return Optional.empty();
    }

    private static boolean answersAsMaster(RedisEndpoint server) {
        try (RedisAdmin admin = RedisAdmin.open(server, COMMAND_TIMEOUT)) {
            return "master".equals(admin.role());
        } catch (RedisErrorReply | UncheckedIOException notYet) {
            return false;
        }
    }

    /** A {@code SENTINEL REPLICAS}/{@code SENTINELS} reply: one flat field-value list per instance. */
    private static List<Map<String, String>> entries(Object reply) {
        List<Map<String, String>> entries = new ArrayList<>();
        for (Object item : (List<?>) reply) {
            List<?> flat = (List<?>) item;
            Map<String, String> fields = new HashMap<>();
            for (int i = 0; i + 1 < flat.size(); i += 2) {
                fields.put(String.valueOf(flat.get(i)), String.valueOf(flat.get(i + 1)));
            }
            entries.add(fields);
        }
        return entries;
    }

    private String sentinelLogs() {
        StringBuilder logs = new StringBuilder();
        for (RedisServerProcess sentinel : sentinels) {
            logs.append('\n').append(sentinel).append(": ").append(sentinel.logTail(25));
        }
        return logs.toString();
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("the sentinel group was closed");
        }
    }

    private static void closeQuietly(AutoCloseable resource) {
        try {
            resource.close();
        } catch (Exception ignored) {
            // Stopping goes on for the rest.
        }
    }
}
