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
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.spi.Refusal;
import io.toolboundary.testsupport.redis.RedisAdmin;
import io.toolboundary.testsupport.redis.RedisEndpoint;
import io.toolboundary.testsupport.redis.SentinelGroup;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The store behind Redis Sentinel ({@code connectSentinel}, Redisson's sentinel mode) through a real
 * failover of a {@link SentinelGroup}: the client follows the sentinels to the promoted replica, a record
 * the replica had survives, and one begun while the replication link was cut is lost, as the README's
 * "Restarts and failovers" says: the promoted replica holds an older copy of the run's state, so every
 * later call of that run is refused with {@code RUN_STATE_LOST}, and a run opened after the failover works.
 */
class SentinelRigTest {

    private static final RedisStoreOptions OPTIONS = RedisStoreOptions.custom().keyPrefix(RedisTestServers.PREFIX).build();
    private static final Duration FAILOVER = Duration.ofSeconds(15);
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(5);

    @Test
    void followsTheSentinelsToThePromotedReplicaAndLosesOnlyTheRecordTheReplicaMissed() {
        try (SentinelGroup group = SentinelGroup.start();
                RedisCanonicalInvocationStore store = RedisCanonicalInvocationStoreFactory.connectSentinel(
                        group.masterName(), group.sentinelUrls(), OPTIONS)) {
            RunId run = Records.openedRun(store);
            CanonicalRecord.Projecting replicated = projecting(key(run, "before-cut"), "{\"n\":1}");
            AttemptToken token = AttemptToken.random();
            assertThat(store.begin(start(replicated, token), TIMEOUT)).isEqualTo(Either.right(replicated));
            CanonicalRecord.Ready done = ready(replicated, "raw", "result");
            assertThat(store.complete(token, done, TIMEOUT)).isEqualTo(Either.right(done));
            try (RedisAdmin replica = RedisAdmin.open(group.replica(), ADMIN_TIMEOUT)) {
                await("the replica to hold the READY record").atMost(Duration.ofSeconds(10))
                        .pollInterval(Duration.ofMillis(20))
                        .until(() -> "READY".equals(StoredRecord.status(replica.command("GET", store.recordKey(replicated.key())))));
            }

            group.cutReplicationLink();
            CanonicalRecord.Projecting missed = projecting(key(run, "during-cut"), "{\"n\":2}");
            assertThat(store.begin(start(missed, AttemptToken.random()), TIMEOUT)).isEqualTo(Either.right(missed));
            group.killMaster();
            RedisEndpoint promoted = group.awaitFailover(FAILOVER);

            await("the store to read from the promoted replica").atMost(FAILOVER).pollInterval(Duration.ofMillis(100))
                    .until(() -> store.find(replicated.key(), TIMEOUT).equals(Either.right(Option.of(done))));
            assertThat(store.find(missed.key(), TIMEOUT)).as("acknowledged before the failover, then lost")
                    .isEqualTo(Either.right(Option.none()));
            // The promoted replica holds an older copy of the run's state (it missed the begin during the
            // cut): every further call of the run is refused, and runs opened after the failover work.
            CanonicalRecord.Projecting refused = projecting(key(run, "after-failover"), "{\"n\":3}");
            assertThat(store.begin(start(refused, AttemptToken.random()), TIMEOUT))
                    .isEqualTo(Either.left(StoreFailure.refused(Refusal.RUN_STATE_LOST)));
            CanonicalRecord.Projecting after = projecting(key(Records.openedRun(store), "after-failover"), "{\"n\":3}");
            assertThat(store.begin(start(after, AttemptToken.random()), TIMEOUT)).isEqualTo(Either.right(after));
            try (RedisAdmin newMaster = RedisAdmin.open(promoted, ADMIN_TIMEOUT)) {
                assertThat(newMaster.role()).isEqualTo("master");
                assertThat(StoredRecord.status(newMaster.command("GET", store.recordKey(after.key())))).isEqualTo("PROJECTING");
                assertThat(newMaster.commandLong("PTTL", store.recordKey(after.key()))).isPositive();
            }
        }
    }
}
