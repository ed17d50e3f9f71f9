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
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.RunId;
import io.toolboundary.testsupport.redis.RedisDeployment;
import io.toolboundary.testsupport.redis.RedisServerFixture;
import io.vavr.control.Option;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a READY record costs Redis in the store's layout: {@code MEMORY USAGE ... SAMPLES 0} of every key
 * of a run of READY records with 128-byte arguments, a 1 KiB raw response and a 256-byte agent result
 * (the record and its share of the run's state), printed as a {@code FOOTPRINT} line with Redis's own time
 * per call ({@code COMMANDSTATS}), and held under a bound the earlier layouts do not meet: a hash of a
 * dozen fields (2,735 B on Redis 7.0), a packed hash with the raw response in a key of its own (schema 4,
 * 2,423 B). One string per record (schema 5) measures 1,943 B, 535 B over its 1,408 B of payload.
 */
class RecordFootprintTest {

    private static final int RECORDS = 200;
    /** The payload, in bytes: 1 KiB raw, 128 B arguments, 256 B content; 1,408 B in all. */
    private static final int PAYLOAD = 1024 + 128 + 256;

    @Test
    void aReadyRecordAt1KibRawCostsLittleMoreThanItsPayload() {
        RedisDeployment redis = RedisServerFixture.standalone();
        try (RedisCanonicalInvocationStore store = RedisCanonicalInvocationStoreFactory.create(
                RedisTestServers.standaloneClient(), RedisStoreOptions.custom().keyPrefix("tbfootprint").build())) {
            RunId run = openedRun(store);
            long usedBefore = usedMemory(redis);
            redis.call("CONFIG", "RESETSTAT");
            String arguments = "{\"q\":\"" + "a".repeat(128 - 8) + "\"}";
            String raw = "r".repeat(1024);
            AgentResult result = new AgentResult("c".repeat(256), EvidenceStatus.EVIDENCE_FOUND, Option.none());
            for (int i = 0; i < RECORDS; i++) {
                CanonicalRecord.Projecting record = projecting(key(run, "call-" + i), arguments);
                AttemptToken token = AttemptToken.random();
                assertThat(store.begin(start(record, token), TIMEOUT).isRight()).isTrue();
                assertThat(store.complete(token, ready(record, raw, result), TIMEOUT).isRight()).isTrue();
            }

            long usedGrowth = (usedMemory(redis) - usedBefore) / RECORDS;
            StringBuilder micros = new StringBuilder();
            for (String line : ((String) redis.call("INFO", "commandstats")).split("\r\n")) {
                if (line.startsWith("cmdstat_")) {
                    String name = line.substring("cmdstat_".length(), line.indexOf(':'));
                    long usec = Long.parseLong(line.replaceAll(".*[:,]usec=([0-9]+),.*", "$1"));
                    micros.append(' ').append(name).append('=').append(String.format("%.2f", usec / (double) RECORDS));
                }
            }
            System.out.println("COMMANDSTATS usec per call:" + micros);

            long total = 0;
            java.util.Map<String, Long> byKind = new java.util.TreeMap<>();
            for (String key : keysOf(redis, "tbfootprint:{" + run.value() + "}:*")) {
                long bytes = redis.callLong("MEMORY", "USAGE", key, "SAMPLES", "0");
                total += bytes;
                String kind = key.substring(key.indexOf("}:") + 2);
                byKind.merge(kind.contains(":") ? kind.substring(0, kind.indexOf(':')) : kind, bytes, Long::sum);
            }
            long perRecord = total / RECORDS;
            StringBuilder kinds = new StringBuilder();
            byKind.forEach((kind, bytes) -> kinds.append(' ').append(kind).append('=').append(bytes / RECORDS));
            System.out.println("FOOTPRINT ready-record raw=1024 arguments=128 content=256 payload=" + PAYLOAD
                    + " memoryUsagePerRecord=" + perRecord + " overhead=" + (perRecord - PAYLOAD) + " perKind:"
                    + kinds + " usedMemoryGrowthPerRecord=" + usedGrowth);
            assertThat(perRecord).as("MEMORY USAGE per READY record and its share of the run")
                    .isLessThan(2_100);
        }
    }

    private static long usedMemory(RedisDeployment redis) {
        for (String line : ((String) redis.call("INFO", "memory")).split("\r\n")) {
            if (line.startsWith("used_memory:")) {
                return Long.parseLong(line.substring("used_memory:".length()));
            }
        }
        throw new IllegalStateException("no used_memory in INFO memory");
    }

    @SuppressWarnings("unchecked")
    private static List<String> keysOf(RedisDeployment redis, String pattern) {
        List<String> keys = new ArrayList<>();
        String cursor = "0";
        do {
            List<Object> page = (List<Object>) redis.call("SCAN", cursor, "MATCH", pattern, "COUNT", "1000");
            cursor = (String) page.get(0);
            ((List<Object>) page.get(1)).forEach(key -> keys.add((String) key));
        } while (!"0".equals(cursor));
        return keys;
    }
}
