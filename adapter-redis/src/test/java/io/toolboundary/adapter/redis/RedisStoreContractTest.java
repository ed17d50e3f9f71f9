package io.toolboundary.adapter.redis;

import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.tck.store.StoreAbandoningContract;
import io.toolboundary.tck.store.StoreCompletingContract;
import io.toolboundary.tck.store.StoreCreatingContract;
import io.toolboundary.tck.store.StoreRacesContract;
import io.toolboundary.tck.store.StoreRunsContract;
import io.toolboundary.testsupport.redis.RedisDeployment;
import io.vavr.control.Option;
import java.time.Duration;

/**
 * The whole store contract on a real Redis; the subclasses choose standalone or cluster. One store per
 * deployment, shared by the suite's tests (each test uses its own run id).
 */
abstract class RedisStoreContractTest implements StoreRunsContract, StoreCreatingContract, StoreCompletingContract,
        StoreAbandoningContract, StoreRacesContract {

    /** Small enough that the size-limit tests stay fast, large enough for every other record. */
    private static final long RECORD_LIMIT_BYTES = 4096;

    private final RedisCanonicalInvocationStore store;
    private final RecordLife life;

    RedisStoreContractTest(RedisDeployment deployment) {
        this.store = RedisCanonicalInvocationStoreFactory.create(RedisTestServers.client(deployment),
                RedisStoreOptions.custom().keyPrefix(RedisTestServers.PREFIX).recordCapBytes(RECORD_LIMIT_BYTES).build());
        this.life = new RecordLife(deployment, store);
    }

    @Override
    public CanonicalInvocationStore store() {
        return store;
    }

    @Override
    public Option<Duration> remainingTtl(InvocationKey key) {
        return life.remainingTtl(key);
    }

    @Override
    public void expire(InvocationKey key) {
        life.expire(key);
    }

    @Override
    public void expireRun(RunId runId) {
        life.expireRun(runId);
    }

    @Override
    public void passLease(InvocationKey key) {
        life.passLease(key);
    }

    @Override
    public long maxRecordBytes() {
        return RECORD_LIMIT_BYTES;
    }

    /** Each call is a network round trip: 50 rounds of 128 racing calls keep the race near 10 s. */
    @Override
    public int budgetRaceRounds() {
        return 50;
    }
}
