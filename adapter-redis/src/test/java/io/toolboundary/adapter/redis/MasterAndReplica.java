package io.toolboundary.adapter.redis;

import static org.awaitility.Awaitility.await;

import io.toolboundary.testsupport.redis.RedisServerProcess;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Two {@code redis-server} processes of a test's own, the second a replica of the first
 * ({@code REPLICAOF}, full sync without the diskless delay), for the replica-acknowledgement and
 * new-master tests. The test's commands go to each process directly.
 */
final class MasterAndReplica implements AutoCloseable {

    private static final Duration READY = Duration.ofSeconds(20);

    final RedisServerProcess master;
    final RedisServerProcess replica;

    private MasterAndReplica(RedisServerProcess master, RedisServerProcess replica) {
        this.master = master;
        this.replica = replica;
    }

    /** Starts both and waits until the replica's link is up and it has everything. */
    static MasterAndReplica start() {
        RedisServerProcess master = RedisServerProcess.start();
        RedisServerProcess replica;
        try {
            replica = RedisServerProcess.start();
        } catch (RuntimeException | Error failure) {
            master.close();
            throw failure;
        }
        MasterAndReplica pair = new MasterAndReplica(master, replica);
        try {
            follow(replica, master);
            pair.awaitInSync();
            return pair;
        } catch (RuntimeException | Error failure) {
            pair.close();
            throw failure;
        }
    }

    /** Makes {@code follower} a replica of {@code leader}, without the 5 s diskless-sync delay. */
    static void follow(RedisServerProcess follower, RedisServerProcess leader) {
        leader.call("CONFIG", "SET", "repl-diskless-sync-delay", "0");
        follower.call("REPLICAOF", leader.endpoint().host(), Integer.toString(leader.endpoint().port()));
    }

    /**
     * Waits until the replica's link is up, the master counts it online, and the replica has processed
     * the master's whole replication stream (the master learns that at the replica's next
     * acknowledgement, at once when a {@code WAIT} asks for it).
     */
    void awaitInSync() {
        await("the replica in sync").atMost(READY).pollInterval(Duration.ofMillis(10)).until(() -> {
            Map<String, String> masterInfo = info(master, "replication");
            Map<String, String> replicaInfo = info(replica, "replication");
            return masterInfo.getOrDefault("slave0", "").contains("state=online")
                    && "up".equals(replicaInfo.get("master_link_status"))
                    && masterInfo.get("master_repl_offset").equals(replicaInfo.get("slave_repl_offset"));
        });
    }

    /** {@code INFO section} of one server as a map. */
    static Map<String, String> info(RedisServerProcess server, String section) {
        Map<String, String> fields = new HashMap<>();
        for (String line : String.valueOf(server.call("INFO", section)).split("\r?\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                fields.put(line.substring(0, colon), line.substring(colon + 1));
            }
        }
        return fields;
    }

    /** {@code cmdstat_<name>:calls=N} of the master, subcommands folded into their command. */
    Map<String, Long> masterCommandCalls() {
        Map<String, Long> calls = new HashMap<>();
        info(master, "commandstats").forEach((name, stats) -> {
            if (name.startsWith("cmdstat_")) {
                String command = name.substring("cmdstat_".length()).split("\\|")[0];
                long count = Long.parseLong(stats.substring("calls=".length(), stats.indexOf(',')));
                calls.merge(command, count, Long::sum);
            }
        });
        return calls;
    }

    @Override
    public void close() {
        try {
            if (replica.isFrozen()) {
                replica.thaw();
            }
        } finally {
            replica.close();
            master.close();
        }
    }
}
