package io.toolboundary.adapter.redis;

import static io.toolboundary.adapter.redis.Records.key;
import static io.toolboundary.adapter.redis.Records.projecting;
import static io.toolboundary.adapter.redis.Records.ready;
import static io.toolboundary.adapter.redis.Records.start;
import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.RunId;
import io.toolboundary.testsupport.redis.RedisServerProcess;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.redisson.config.ReadMode;

/**
 * The store meets a new master after its creation: two {@code redis-server} processes of the test's
 * own, the first the master, the second its replica with {@code maxmemory-policy allkeys-lru}, behind a
 * Redisson client in replicated mode (which polls the nodes' roles every 50 ms and follows a master
 * change); then a failover by hand ({@code REPLICAOF NO ONE} on the replica, {@code REPLICAOF} on the
 * old master). Chosen over a cluster that gains a master, or Sentinel, because two plain processes and
 * two commands make the switch deterministic and take well under a second. The store's ticker is the
 * test's: a look for new masters happens exactly when the test moves it past the interval; nothing
 * sleeps.
 *
 * <p>A server whose policy changes after it was checked is not a new master: the check is per master,
 * at first sight, which is why a failover is needed here.
 */
class NewMasterEvictionPolicyTest {

    private static final String PREFIX = "tbnewmaster";
    private static final Duration INTERVAL = RedisStoreOptions.DEFAULT_MASTER_CHECK_INTERVAL;

    @Test
    void underRefuseANewMasterThatMayEvictFailsWritesClosedUntilItsPolicyIsFixed() {
        try (MasterAndReplica redis = MasterAndReplica.start(); Rig rig = new Rig(redis,
                RedisStoreOptions.EvictionPolicyCheck.REFUSE); LogCapture log = new LogCapture()) {
            RunId run = Records.openedRun(rig.store);
            CanonicalRecord.Projecting before = projecting(key(run, "before"), "{}");
            AttemptToken beforeToken = AttemptToken.random();
            assertThat(rig.store.begin(start(before, beforeToken), TIMEOUT).isRight()).isTrue();
            await("the replica to hold the record").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
                    .until(() -> "PROJECTING".equals(StoredRecord.status(redis.replica.call("GET", rig.store.recordKey(before.key())))));

            rig.failOver();
            rig.ticker.addAndGet(INTERVAL.toNanos());

            CanonicalRecord.Projecting refused = projecting(key(run, "refused"), "{}");
            assertThat(rig.store.begin(start(refused, AttemptToken.random()), TIMEOUT))
                    .isEqualTo(Either.left(StoreFailure.unavailable()));
            assertThat(rig.store.complete(beforeToken, ready(before, "raw", "result"), TIMEOUT))
                    .isEqualTo(Either.left(StoreFailure.unavailable()));
            assertThat(rig.store.begin(start(refused, AttemptToken.random()), TIMEOUT))
                    .isEqualTo(Either.left(StoreFailure.unavailable()));
            // Nothing was written; reads go on.
            assertThat(redis.replica.keys(PREFIX + ":*" + "refused")).isEmpty();
            assertThat(rig.store.find(refused.key(), TIMEOUT)).isEqualTo(Either.right(Option.none()));
            assertThat(rig.store.find(before.key(), TIMEOUT).get().get().status().name()).isEqualTo("PROJECTING");
            // Logged once, with the master, the policy and the fix.
            assertThat(log.warnings()).singleElement().satisfies(message -> assertThat(message)
                    .contains(redis.replica.endpoint().hostAndPort()).contains("'allkeys-lru'")
                    .contains("maxmemory-policy noeviction").contains("STORE_UNAVAILABLE"));

            redis.replica.call("CONFIG", "SET", "maxmemory-policy", "noeviction");
            // Still refused until the next look.
            assertThat(rig.store.begin(start(refused, AttemptToken.random()), TIMEOUT).mapLeft(StoreFailure::code).getLeft())
                    .isEqualTo(ErrorCode.STORE_UNAVAILABLE);
            rig.ticker.addAndGet(INTERVAL.toNanos());

            AttemptToken token = AttemptToken.random();
            assertThat(rig.store.begin(start(refused, token), TIMEOUT)).isEqualTo(Either.right(refused));
            assertThat(rig.store.complete(beforeToken, ready(before, "raw", "result"), TIMEOUT).isRight()).isTrue();
            assertThat(StoredRecord.status(redis.replica.call("GET", rig.store.recordKey(refused.key())))).isEqualTo("PROJECTING");
            assertThat(log.warnings()).hasSize(1);
        }
    }

    @Test
    void underWarnANewMasterThatMayEvictIsLoggedOnceAndWritesGoOn() {
        try (MasterAndReplica redis = MasterAndReplica.start(); Rig rig = new Rig(redis,
                RedisStoreOptions.EvictionPolicyCheck.WARN); LogCapture log = new LogCapture()) {
            rig.failOver();
            rig.ticker.addAndGet(INTERVAL.toNanos());
            RunId run = Records.openedRun(rig.store);

            for (int call = 0; call < 3; call++) {
                CanonicalRecord.Projecting record = projecting(key(run, "call-" + call), "{}");
                AttemptToken token = AttemptToken.random();
                assertThat(rig.store.begin(start(record, token), TIMEOUT).isRight()).isTrue();
                assertThat(rig.store.complete(token, ready(record, "raw", "result"), TIMEOUT).isRight()).isTrue();
                rig.ticker.addAndGet(INTERVAL.toNanos());
            }

            await("the check's log line").atMost(Duration.ofSeconds(10)).until(() -> !log.warnings().isEmpty());
            assertThat(log.warnings()).singleElement().satisfies(message -> assertThat(message)
                    .contains(redis.replica.endpoint().hostAndPort()).contains("'allkeys-lru'")
                    .contains("EvictionPolicyCheck.WARN"));
        }
    }

    @Test
    void withoutAFailoverNoMasterIsCheckedAgainAndNoConfigIsSent() {
        try (MasterAndReplica redis = MasterAndReplica.start(); Rig rig = new Rig(redis,
                RedisStoreOptions.EvictionPolicyCheck.REFUSE); LogCapture log = new LogCapture()) {
            RunId run = Records.openedRun(rig.store);
            // begin.lua loaded, then statistics from zero
            assertThat(rig.store.begin(start(projecting(key(run, "warm-up"), "{}"), AttemptToken.random()), TIMEOUT)
                    .isRight()).isTrue();
            redis.master.call("CONFIG", "RESETSTAT");
            for (int call = 0; call < 3; call++) {
                CanonicalRecord.Projecting record = projecting(key(run, "call-" + call), "{}");
                assertThat(rig.store.begin(start(record, AttemptToken.random()), TIMEOUT).isRight()).isTrue();
                rig.ticker.addAndGet(INTERVAL.toNanos());
            }
            // A policy changed on a master already checked is not seen: the check is at first sight.
            redis.master.call("CONFIG", "SET", "maxmemory-policy", "volatile-lru");
            rig.ticker.addAndGet(INTERVAL.toNanos());
            assertThat(rig.store.begin(start(projecting(key(run, "after"), "{}"), AttemptToken.random()), TIMEOUT)
                    .isRight()).isTrue();

            assertThat(redis.masterCommandCalls()).containsEntry("evalsha", 4L);
            assertThat(MasterAndReplica.info(redis.master, "commandstats")).doesNotContainKey("cmdstat_config|get");
            assertThat(log.warnings()).isEmpty();
        }
    }

    /** A replicated-mode client over the pair, checked at creation, and a store on it with the test's ticker. */
    private static final class Rig implements AutoCloseable {
        final MasterAndReplica redis;
        final RedissonClient client;
        final RedisCanonicalInvocationStore store;
        final AtomicLong ticker = new AtomicLong();

        Rig(MasterAndReplica redis, RedisStoreOptions.EvictionPolicyCheck check) {
            this.redis = redis;
            redis.replica.call("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");
            Config config = new Config();
            config.useReplicatedServers()
                    .addNodeAddress(redis.master.endpoint().uri(), redis.replica.endpoint().uri())
                    .setScanInterval(50)
                    .setReadMode(ReadMode.MASTER)
                    .setPingConnectionInterval(0);
            this.client = Redisson.create(config);
            RedisStoreOptions options = RedisStoreOptions.custom().keyPrefix(PREFIX).evictionPolicyCheck(check).build();
            EvictionPolicyGuard.check(client, options);
            this.store = new RedisCanonicalInvocationStore(client, false, options, ticker::get);
        }

        /** Promotes the replica, demotes the master, and waits until the client writes to the new master. */
        void failOver() {
            RedisServerProcess promoted = redis.replica;
            promoted.call("REPLICAOF", "NO", "ONE");
            MasterAndReplica.follow(redis.master, promoted);
            String address = promoted.endpoint().hostAndPort();
            await("the client follows the new master").atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(10))
                    .until(() -> MasterPolicyWatch.mastersOf(client).stream().map(MasterPolicyWatch.Master::address)
                            .toList().equals(List.of(address)));
        }

        @Override
        public void close() {
            client.shutdown();
        }
    }

    /** The store's log lines at WARNING and above while open. */
    private static final class LogCapture extends Handler implements AutoCloseable {
        private final Logger storeLog = Logger.getLogger(RedisCanonicalInvocationStore.class.getName());
        private final List<String> warnings = new CopyOnWriteArrayList<>();

        LogCapture() {
            storeLog.addHandler(this);
        }

        List<String> warnings() {
            return List.copyOf(warnings);
        }

        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                warnings.add(record.getMessage());
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
            storeLog.removeHandler(this);
        }
    }
}
