package io.toolboundary.adapter.redis;

import static io.toolboundary.adapter.redis.Records.key;
import static io.toolboundary.adapter.redis.Records.newRun;
import static io.toolboundary.adapter.redis.Records.open;
import static io.toolboundary.adapter.redis.Records.projecting;
import static io.toolboundary.adapter.redis.Records.ready;
import static io.toolboundary.adapter.redis.Records.start;
import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.testsupport.redis.RedisAdmin;
import io.toolboundary.testsupport.redis.RedisDeployment;
import io.toolboundary.testsupport.redis.RedisEndpoint;
import io.toolboundary.testsupport.redis.RedisErrorReply;
import io.toolboundary.testsupport.redis.RedisServerFixture;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The factory's plain {@code connect…} methods: URLs in, a working store out, or a failure that names no secret. */
class RedisStoreFactoryTest {

    private static final RedisStoreOptions OPTIONS = RedisStoreOptions.custom().keyPrefix(RedisTestServers.PREFIX).build();

    @Test
    void connectsToAStandaloneServerFromItsUrlAndShutsItsClientOnClose() {
        RedisDeployment redis = RedisServerFixture.standalone();
        RedisCanonicalInvocationStore store = RedisCanonicalInvocationStoreFactory.connectStandalone(
                redis.nodes().get(0).uri(), OPTIONS);
        CanonicalRecord.Projecting record = projecting(key(newRun(), "c1"), "{\"q\":1}");
        try {
            playOneCall(store, record);
            assertThat(redis.callLong("PTTL", store.recordKey(record.key()))).isPositive();
        } finally {
            store.close();
        }

        assertThat(store.find(record.key(), TIMEOUT)).isEqualTo(Either.left(StoreFailure.unavailable()));
        assertThat(StoredRecord.status(redis.call("GET", store.recordKey(record.key())))).isEqualTo("READY");
    }

    @Test
    void connectsToAClusterFromOneSeedAndReachesEveryMaster() {
        RedisDeployment cluster = RedisServerFixture.cluster();
        Set<String> owners = new TreeSet<>();
        try (RedisCanonicalInvocationStore store = RedisCanonicalInvocationStoreFactory.connectCluster(
                List.of(cluster.nodes().get(0).uri()), OPTIONS)) {
            for (int i = 0; i < 12; i++) {
                CanonicalRecord.Projecting record = projecting(key(newRun(), "c" + i), "{\"i\":" + i + "}");
                playOneCall(store, record);
                String recordKey = store.recordKey(record.key());
                assertThat(cluster.callLong("PTTL", recordKey)).isPositive();
                owners.add(owner(cluster, recordKey));
            }
        }

        assertThat(owners).as("masters holding the records").hasSizeGreaterThan(1);
    }

    @Test
    void takesCredentialsFromTheUrl() {
        RedisDeployment redis = RedisServerFixture.standalone();
        RedisEndpoint server = redis.nodes().get(0);
        String user = "tb-factory-" + Long.toHexString(System.nanoTime());
        redis.call("ACL", "SETUSER", user, "on", ">s3cret-pass", "~*", "+@all");
        try (RedisCanonicalInvocationStore store = RedisCanonicalInvocationStoreFactory.connectStandalone(
                "redis://" + user + ":s3cret-pass@" + server.hostAndPort(), OPTIONS)) {
            playOneCall(store, projecting(key(newRun(), "c1"), "{}"));
        } finally {
            redis.call("ACL", "DELUSER", user);
        }
    }

    @Test
    void reportsARefusedConnectionWithoutNamingCredentials() throws IOException {
        int closedPort = closedPort();

        assertThatThrownBy(() -> RedisCanonicalInvocationStoreFactory.connectStandalone(
                "redis://admin:s3cret@127.0.0.1:" + closedPort, OPTIONS))
                .isInstanceOf(RedisStoreUnavailableException.class)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("cannot connect to Redis at 127.0.0.1:" + closedPort + ": connection refused")
                .hasNoCause();
    }

    @Test
    void refusesAClusterNodeGivenAsAStandaloneServer() {
        RedisEndpoint node = RedisServerFixture.cluster().nodes().get(0);

        assertThatThrownBy(() -> RedisCanonicalInvocationStoreFactory.connectStandalone(node.uri(), OPTIONS))
                .isInstanceOf(RedisStoreUnavailableException.class)
                .hasMessage("cannot use Redis at " + node.hostAndPort()
                        + " as a standalone server: it is a Redis Cluster node (connect to the cluster instead)");
    }

    @Test
    void rejectsAnAddressThatIsNotARedisUrlWithoutNamingItsCredentials() {
        List<String> notRedisUrls = List.of("http://127.0.0.1:6379", "redis://", "127.0.0.1:6379",
                "redis://127.0.0.1:6379/2", "redis://127.0.0.1:6379?timeout=1", "redis://127.0.0.1:70000",
                "redis://127.0.0.1:port", "redis://u:pa%zzss@127.0.0.1:6379/0");
        for (String url : notRedisUrls) {
            assertThatThrownBy(() -> RedisCanonicalInvocationStoreFactory.connectStandalone(url, OPTIONS))
                    .as(url)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("redisUrl must look like redis://[[user]:password@]host[:port]");
        }
        assertThatThrownBy(() -> RedisCanonicalInvocationStoreFactory.connectStandalone(
                "redis://admin:s3cret@127.0.0.1:6379/db", OPTIONS))
                .hasMessageEndingWith("the URL for redis://127.0.0.1:6379 has a path"
                        + " (no database number or other path is supported)")
                .hasMessageNotContaining("s3cret")
                .hasMessageNotContaining("admin");
    }

    @Test
    void rejectsSeedListsThatAreEmptyOrMixCredentials() {
        assertThatThrownBy(() -> RedisCanonicalInvocationStoreFactory.connectCluster(List.of(), OPTIONS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("seedUrls must name at least one server");
        assertThatThrownBy(() -> RedisCanonicalInvocationStoreFactory.connectCluster(
                List.of("redis://:one@127.0.0.1:7001", "redis://:two@127.0.0.1:7002"), OPTIONS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("seedUrls must all carry the same credentials (or none)");
        assertThatThrownBy(() -> RedisCanonicalInvocationStoreFactory.connectSentinel(" ",
                List.of("redis://127.0.0.1:26379"), OPTIONS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("masterName must not be blank");
        assertThatThrownBy(() -> RedisCanonicalInvocationStoreFactory.connectSentinel("mymaster",
                List.of("sentinel://127.0.0.1:26379"), OPTIONS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("sentinelUrls element must look like redis://");
    }

    @Test
    void readsTheServerAndCredentialsOfAUrl() {
        assertThat(RedisAddress.parse("url", "redis://127.0.0.1"))
                .isEqualTo(new RedisAddress(false, "127.0.0.1", 6379, Option.none(), Option.none()));
        assertThat(RedisAddress.parse("url", "rediss://app:p%40ss@cache.example:6380/"))
                .isEqualTo(new RedisAddress(true, "cache.example", 6380, Option.some("app"), Option.some("p@ss")));
        RedisAddress passwordOnly = RedisAddress.parse("url", "redis://:secret@[::1]:7000");
        assertThat(passwordOnly).isEqualTo(new RedisAddress(false, "[::1]", 7000, Option.none(), Option.some("secret")));
        assertThat(passwordOnly.uri()).isEqualTo("redis://[::1]:7000");
        assertThat(passwordOnly.toString()).doesNotContain("secret");
    }

    /** Opens the record's run, then begins, completes and finds the record. */
    private static void playOneCall(RedisCanonicalInvocationStore store, CanonicalRecord.Projecting record) {
        open(store, record.key().runId());
        AttemptToken token = AttemptToken.random();
        assertThat(store.begin(start(record, token), TIMEOUT)).isEqualTo(Either.right(record));
        CanonicalRecord.Ready done = ready(record, "raw", "result");
        assertThat(store.complete(token, done, TIMEOUT)).isEqualTo(Either.right(done));
        assertThat(store.find(record.key(), TIMEOUT)).isEqualTo(Either.right(Option.of(done)));
    }

    /** The master that holds a key: the one node that answers for it instead of redirecting. */
    private static String owner(RedisDeployment cluster, String key) {
        List<String> owners = new ArrayList<>();
        for (RedisEndpoint node : cluster.nodes()) {
            try (RedisAdmin connection = RedisAdmin.open(node, Duration.ofSeconds(5))) {
                if (Long.valueOf(1L).equals(connection.command("EXISTS", key))) {
                    owners.add(node.hostAndPort());
                }
            } catch (RedisErrorReply moved) {
                assertThat(moved.kind()).isEqualTo("MOVED");
            }
        }
        assertThat(owners).as("owners of " + key).hasSize(1);
        return owners.get(0);
    }

    private static int closedPort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }
}
