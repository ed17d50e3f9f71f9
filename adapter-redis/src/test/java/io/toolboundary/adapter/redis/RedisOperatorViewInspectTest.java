package io.toolboundary.adapter.redis;

import static io.toolboundary.adapter.redis.Records.key;
import static io.toolboundary.adapter.redis.Records.openedRun;
import static io.toolboundary.adapter.redis.Records.projecting;
import static io.toolboundary.adapter.redis.Records.ready;
import static io.toolboundary.adapter.redis.Records.start;
import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.RunId;
import io.toolboundary.testsupport.redis.RedisDeployment;
import io.toolboundary.testsupport.redis.RedisServerFixture;
import io.vavr.control.Option;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the operator view reads of a record's key: its small values unpacked, the sizes of its large ones. */
class RedisOperatorViewInspectTest {

    private final RedisDeployment redis = RedisServerFixture.standalone();
    private final RedisCanonicalInvocationStore store = SharedRedisStores.withDefaultOptions(redis);
    private final RedisOperatorView view = RedisOperatorView.of(store, Duration.ofSeconds(5));

    @Test
    void inspectsAProjectingAReadyAndAFailedRecord() {
        RunId run = openedRun(store);
        CanonicalRecord.Projecting projecting = projecting(key(run, "open"), "{\"q\":1}");
        store.begin(start(projecting, AttemptToken.random()), TIMEOUT);

        RedisOperatorView.KeyFacts open = view.inspect(store.recordKey(projecting.key())).get();

        assertThat(open.type()).isEqualTo("string");
        assertThat(open.fields()).containsEntry("schema", RecordCodec.SCHEMA_VERSION)
                .containsEntry("status", "PROJECTING").containsEntry("tool", projecting.tool().value())
                .containsEntry("createdAt", projecting.createdAt().toString()).containsKey("leaseUntil")
                .doesNotContainKey("leaseLeftMillis")
                .doesNotContainKeys("updatedAt", "evidence", "errorCode", "failureType");
        assertThat(open.fieldBytes()).containsEntry("arguments", 7L).containsEntry("rawResponse", 0L)
                .containsEntry("content", 0L).containsEntry("scope", 0L).containsEntry("failureMessage", 0L)
                .containsEntry("record", redis.callLong("STRLEN", store.recordKey(projecting.key())));

        CanonicalRecord.Projecting scoped = projecting(key(run, "ready"), "{}");
        AttemptToken token = AttemptToken.random();
        store.begin(start(scoped, token), TIMEOUT);
        CanonicalRecord.Ready done = ready(scoped, "raw ü", new AgentResult("result", EvidenceStatus.EVIDENCE_FOUND,
                Option.some("scope|x")));
        store.complete(token, done, TIMEOUT);

        RedisOperatorView.KeyFacts ready = view.inspect(store.recordKey(done.key())).get();

        assertThat(ready.fields()).containsEntry("status", "READY").containsEntry("evidence", "EVIDENCE_FOUND")
                .containsEntry("updatedAt", done.updatedAt().toString()).doesNotContainKey("errorCode");
        assertThat(ready.fieldBytes()).containsEntry("arguments", 2L).containsEntry("rawResponse", 6L)
                .containsEntry("content", 6L).containsEntry("scope", 7L).containsEntry("failureMessage", 0L);

        CanonicalRecord.Projecting failing = projecting(key(run, "failed"), "{}");
        AttemptToken failingToken = AttemptToken.random();
        store.begin(start(failing, failingToken), TIMEOUT);
        CanonicalRecord.Failed failed = Records.failed(failing, ErrorCode.EXECUTION_FAILED, Option.some("boom"))
                .because("java.io.IOException", "reset | by peer \u00fc");
        store.complete(failingToken, failed, TIMEOUT);

        RedisOperatorView.KeyFacts error = view.inspect(store.recordKey(failed.key())).get();

        assertThat(error.fields()).containsEntry("status", "ERROR").containsEntry("evidence", "ERROR")
                .containsEntry("errorCode", "EXECUTION_FAILED").containsEntry("failureType", "java.io.IOException");
        assertThat(error.fieldBytes()).containsEntry("rawResponse", 4L).containsEntry("content", 0L)
                .containsEntry("failureMessage", 18L);

        RedisOperatorView.KeyFacts runState = view.inspect(store.runKey(run)).get();
        assertThat(runState.type()).isEqualTo("hash");
        assertThat(runState.fields()).isEmpty();
    }
}
