package io.toolboundary.adapter.redis;

import static io.toolboundary.adapter.redis.Records.RUN_TOKEN;
import static io.toolboundary.adapter.redis.Records.RUN_TTL;
import static io.toolboundary.adapter.redis.Records.key;
import static io.toolboundary.adapter.redis.Records.newRun;
import static io.toolboundary.adapter.redis.Records.openedRun;
import static io.toolboundary.adapter.redis.Records.projecting;
import static io.toolboundary.adapter.redis.Records.ready;
import static io.toolboundary.adapter.redis.Records.start;
import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.RunOpening;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.RunId;
import io.toolboundary.testsupport.redis.RedisAdmin;
import io.toolboundary.testsupport.redis.RedisDeployment;
import io.toolboundary.testsupport.redis.RedisServerFixture;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.redisson.client.RedisClusterDownException;
import org.redisson.client.RedisConnectionException;
import org.redisson.client.RedisException;
import org.redisson.client.RedisNoScriptException;
import org.redisson.client.RedisOutOfMemoryException;
import org.redisson.client.RedisReconnectedException;
import org.redisson.client.RedisResponseTimeoutException;
import org.redisson.client.RedisTimeoutException;
import org.redisson.client.RedisTryAgainException;
import org.redisson.client.WriteRedisConnectionException;
import org.redisson.config.Config;

/** Redis failures become safe codes, nothing escapes as an exception, and an evicting server is refused. */
class RedisStoreFailureTest {

    /** A short timeout for calls to a server that cannot answer: the store tries until it runs out. */
    private static final Duration SHORT = Duration.ofMillis(600);

    private static final RedisStoreOptions OPTIONS = RedisStoreOptions.custom().keyPrefix(RedisTestServers.PREFIX).build();

    @Test
    void reportsARefusedConnectionAsStoreUnavailable() throws IOException {
        int closedPort;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = probe.getLocalPort();
        }
        try (RedisCanonicalInvocationStore store = RedisCanonicalInvocationStoreFactory.create(
                quickFailing("redis://127.0.0.1:" + closedPort), OPTIONS)) {
            CanonicalRecord.Projecting record = projecting(key(newRun(), "c1"), "{}");
            // Every try is refused at once; the store keeps trying until the timeout and still knows
            // that none can have reached a server.

            assertThat(store.openRun(new RunOpening(record.key().runId(), RUN_TOKEN, RUN_TTL), SHORT))
                    .isEqualTo(Either.left(StoreFailure.unavailable()));
            assertThat(store.begin(start(record, AttemptToken.random()), SHORT))
                    .isEqualTo(Either.left(StoreFailure.unavailable()));
            assertThat(store.find(record.key(), SHORT)).isEqualTo(Either.left(StoreFailure.unavailable()));
            assertThat(store.complete(AttemptToken.random(), ready(record, "raw", "result"), SHORT))
                    .isEqualTo(Either.left(StoreFailure.unavailable()));
        }
    }

    @Test
    void reportsAMissingReplyAsOutcomeUnknown() throws IOException {
        try (SilentServer silent = new SilentServer();
                RedisCanonicalInvocationStore store = RedisCanonicalInvocationStoreFactory.create(
                        quickFailing("redis://127.0.0.1:" + silent.port()),
                        RedisStoreOptions.custom().evictionPolicyCheck(RedisStoreOptions.EvictionPolicyCheck.WARN).build())) {
            CanonicalRecord.Projecting record = projecting(key(newRun(), "c1"), "{}");

            // The script was written and no reply came within the response timeout (1 s) nor the call's.
            assertThat(store.begin(start(record, AttemptToken.random()), Duration.ofMillis(1_500)))
                    .isEqualTo(Either.left(StoreFailure.outcomeUnknown()));
        }
    }

    @Test
    void reportsAnOutOfMemoryRefusalAsStoreFullAndWritesNothing() {
        RedisDeployment redis = RedisServerFixture.standalone();
        RedisCanonicalInvocationStore store = RedisCanonicalInvocationStoreFactory.create(
                RedisTestServers.standaloneClient(), OPTIONS);
        CanonicalRecord.Projecting begun = projecting(key(openedRun(store), "c1"), "{}");
        AttemptToken token = AttemptToken.random();
        store.begin(start(begun, token), TIMEOUT);
        CanonicalRecord.Projecting refused = projecting(key(openedRun(store), "c2"), "{}");
        RunId unopened = newRun();
        Either<StoreFailure, RunToken> open;
        Either<StoreFailure, CanonicalRecord.Projecting> begin;
        Either<StoreFailure, CanonicalRecord.Final> complete;
        redis.call("CONFIG", "SET", "maxmemory", "1");
        try {
            open = store.openRun(new RunOpening(unopened, RUN_TOKEN, RUN_TTL), TIMEOUT);
            begin = store.begin(start(refused, AttemptToken.random()), TIMEOUT);
            complete = store.complete(token, ready(begun, "raw", "result"), TIMEOUT);
        } finally {
            redis.call("CONFIG", "SET", "maxmemory", "0");
        }

        assertThat(open).isEqualTo(Either.left(StoreFailure.full()));
        assertThat(begin).isEqualTo(Either.left(StoreFailure.full()));
        assertThat(complete).isEqualTo(Either.left(StoreFailure.full()));
        assertThat(redis.call("EXISTS", store.runKey(unopened))).as("the refused opening wrote nothing").isEqualTo(0L);
        assertThat(store.find(refused.key(), TIMEOUT)).isEqualTo(Either.right(Option.none()));
        assertThat(redis.call("HGET", store.runKey(refused.key().runId()), "calls")).as("no budget reserved")
                .isEqualTo("0");
        assertThat(store.find(begun.key(), TIMEOUT)).isEqualTo(Either.right(Option.of(begun)));
        // the refused SET left the attempt's placeholder as it was, and the script linked nothing: the
        // attempt's next completion goes through whole
        assertThat(redis.call("GET", store.keys().pending(begun.key(), token))).isEqualTo("");
        CanonicalRecord.Ready done = ready(begun, "raw", "result");
        assertThat(store.complete(token, done, TIMEOUT)).isEqualTo(Either.right(done));
        assertThat(store.find(begun.key(), TIMEOUT)).isEqualTo(Either.right(Option.of(done)));
        assertThat(redis.call("EXISTS", store.keys().pending(begun.key(), token))).isEqualTo(0L);
    }

    @Test
    void aCompletionWhoseSetIsRefusedRenamesTheFinalRecordAnEarlierTryOfTheAttemptWrote() {
        // An earlier try's SET reached the server and its reply was lost; this try's SET is refused for memory.
        // The script finds every byte of the final record in the pending key and renames it over the record.
        RedisDeployment redis = RedisServerFixture.standalone();
        RedisCanonicalInvocationStore store = RedisCanonicalInvocationStoreFactory.create(
                RedisTestServers.standaloneClient(), OPTIONS);
        CanonicalRecord.Projecting begun = projecting(key(openedRun(store), "c1"), "{}");
        AttemptToken token = AttemptToken.random();
        store.begin(start(begun, token), TIMEOUT);
        CanonicalRecord.Ready done = ready(begun, "raw \uD83D\uDE00", "result");
        redis.call("SET", store.keys().pending(begun.key(), token),
                new String(RecordCodec.completed(done, token), java.nio.charset.StandardCharsets.UTF_8), "XX", "KEEPTTL");
        long refusedBefore = rejectedSets(redis);
        Either<StoreFailure, CanonicalRecord.Final> complete;
        redis.call("CONFIG", "SET", "maxmemory", "1");
        try {
            complete = store.complete(token, done, TIMEOUT);
        } finally {
            redis.call("CONFIG", "SET", "maxmemory", "0");
        }

        assertThat(rejectedSets(redis)).as("this try's SET was refused").isGreaterThan(refusedBefore);
        assertThat(complete).isEqualTo(Either.right(done));
        assertThat(store.find(begun.key(), TIMEOUT)).isEqualTo(Either.right(Option.of(done)));
    }

    /** How many SET commands the server has refused, from {@code INFO commandstats}. */
    private static long rejectedSets(RedisDeployment redis) {
        for (String line : String.valueOf(redis.call("INFO", "commandstats")).split("\r?\n")) {
            if (line.startsWith("cmdstat_set:")) {
                for (String field : line.substring("cmdstat_set:".length()).split(",")) {
                    if (field.startsWith("rejected_calls=")) {
                        return Long.parseLong(field.substring("rejected_calls=".length()).trim());
                    }
                }
            }
        }
        return 0;
    }

    @Test
    void refusesToStartOnAServerThatMayEvictRecords() {
        RedisDeployment redis = RedisServerFixture.standalone();
        redis.call("CONFIG", "SET", "maxmemory-policy", "volatile-lru");
        try {
            assertThatThrownBy(() -> RedisCanonicalInvocationStoreFactory.create(RedisTestServers.standaloneClient(), OPTIONS))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("volatile-lru")
                    .hasMessageContaining("noeviction");
            RedisCanonicalInvocationStore warned = RedisCanonicalInvocationStoreFactory.create(
                    RedisTestServers.standaloneClient(), RedisStoreOptions.custom()
                            .evictionPolicyCheck(RedisStoreOptions.EvictionPolicyCheck.WARN).build());
            assertThat(warned.options().evictionPolicyCheck()).isEqualTo(RedisStoreOptions.EvictionPolicyCheck.WARN);
        } finally {
            redis.call("CONFIG", "SET", "maxmemory-policy", "noeviction");
        }
    }

    @Test
    void checksTheEvictionPolicyOfEveryClusterMaster() {
        RedisDeployment cluster = RedisServerFixture.cluster();
        try (RedisAdmin last = RedisAdmin.open(cluster.nodes().get(cluster.nodes().size() - 1),
                Duration.ofSeconds(5))) {
            last.command("CONFIG", "SET", "maxmemory-policy", "allkeys-lfu");
            try {
                assertThatThrownBy(() -> RedisCanonicalInvocationStoreFactory.create(RedisTestServers.clusterClient(), OPTIONS))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("allkeys-lfu");
            } finally {
                last.command("CONFIG", "SET", "maxmemory-policy", "noeviction");
            }
        }
        assertThat(RedisCanonicalInvocationStoreFactory.create(RedisTestServers.clusterClient(), OPTIONS)).isNotNull();
    }

    @Test
    void saysOfEachKindOfRedisFailureWhetherTheScriptMayHaveRun() {
        assertThat(RedisFailures.classify(new RedisConnectionException("Unable to connect")))
                .isEqualTo(RedisFailures.Failure.NOT_SENT);
        assertThat(RedisFailures.classify(new WriteRedisConnectionException("Channel has been closed! Can't write")))
                .isEqualTo(RedisFailures.Failure.NOT_SENT);
        assertThat(RedisFailures.classify(new RedisTimeoutException("Unable to acquire connection!")))
                .isEqualTo(RedisFailures.Failure.NOT_SENT);
        assertThat(RedisFailures.classify(new RedisResponseTimeoutException("no reply")))
                .isEqualTo(RedisFailures.Failure.MAY_HAVE_RUN);
        assertThat(RedisFailures.classify(new RedisReconnectedException("Channel has been reconnected")))
                .isEqualTo(RedisFailures.Failure.MAY_HAVE_RUN);
        assertThat(RedisFailures.classify(new RedisException("Unexpected exception while processing command")))
                .as("a failure not known to be harmless").isEqualTo(RedisFailures.Failure.MAY_HAVE_RUN);
        assertThat(RedisFailures.classify(new RedisException("Unexpected exception while processing command",
                new java.net.ConnectException("Connection refused"))))
                .as("a refused connection, as the client wraps it").isEqualTo(RedisFailures.Failure.UNREACHABLE);
        assertThat(RedisFailures.classify(new RedisConnectionException("Unable to connect",
                new io.netty.channel.ConnectTimeoutException("connection timed out"))))
                .as("no connection within the connect timeout").isEqualTo(RedisFailures.Failure.UNREACHABLE);
        assertThat(RedisFailures.classify(new CompletionException(new RedisException("wrapped",
                new java.net.NoRouteToHostException("No route to host")))))
                .isEqualTo(RedisFailures.Failure.UNREACHABLE);
        assertThat(RedisFailures.classify(new RedisException("wrapped", new java.net.UnknownHostException("redis.invalid"))))
                .isEqualTo(RedisFailures.Failure.UNREACHABLE);
        assertThat(RedisFailures.finalFailure(RedisFailures.Failure.UNREACHABLE, false).code())
                .isEqualTo(ErrorCode.STORE_UNAVAILABLE);
        assertThat(RedisFailures.finalFailure(RedisFailures.Failure.UNREACHABLE, true).code())
                .as("an earlier try may have run").isEqualTo(ErrorCode.STORE_OUTCOME_UNKNOWN);
        assertThat(RedisFailures.classify(new RedisException("interrupted", new InterruptedException())))
                .as("an interrupt is never 'unavailable'").isEqualTo(RedisFailures.Failure.MAY_HAVE_RUN);
        assertThat(RedisFailures.classify(new RedisOutOfMemoryException("OOM command not allowed")))
                .isEqualTo(RedisFailures.Failure.FULL);
        assertThat(RedisFailures.classify(new RedisException("OOM command not allowed when used memory")))
                .isEqualTo(RedisFailures.Failure.FULL);
        assertThat(RedisFailures.classify(new RedisClusterDownException("CLUSTERDOWN The cluster is down")))
                .isEqualTo(RedisFailures.Failure.NOT_SENT);
        assertThat(RedisFailures.classify(new RedisTryAgainException("TRYAGAIN Multiple keys request during rehashing")))
                .isEqualTo(RedisFailures.Failure.NOT_SENT);
        assertThat(RedisFailures.classify(new RedisNoScriptException("NOSCRIPT No matching script.")))
                .as("a script the node does not have did not run").isEqualTo(RedisFailures.Failure.NOT_SENT);
        assertThat(RedisFailures.classify(new RedisException("NOAUTH Authentication required")))
                .isEqualTo(RedisFailures.Failure.REFUSED);
        assertThat(RedisFailures.classify(new RedisException("WRONGTYPE Operation against a key")))
                .isEqualTo(RedisFailures.Failure.DATA_INVALID);
        assertThat(RedisFailures.classify(new CompletionException(new RedisResponseTimeoutException("no reply"))))
                .isEqualTo(RedisFailures.Failure.MAY_HAVE_RUN);
        assertThat(RedisFailures.classify(new ClassCastException("unexpected reply")))
                .isEqualTo(RedisFailures.Failure.DATA_INVALID);
    }

    @Test
    void answersUnavailableOnlyWhenNoTryCanHaveRun() {
        assertThat(RedisFailures.finalFailure(RedisFailures.Failure.NOT_SENT, false).code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
        assertThat(RedisFailures.finalFailure(RedisFailures.Failure.REFUSED, false).code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
        assertThat(RedisFailures.finalFailure(RedisFailures.Failure.NOT_SENT, true).code())
                .as("an earlier try may have run").isEqualTo(ErrorCode.STORE_OUTCOME_UNKNOWN);
        assertThat(RedisFailures.finalFailure(RedisFailures.Failure.MAY_HAVE_RUN, false).code())
                .isEqualTo(ErrorCode.STORE_OUTCOME_UNKNOWN);
        assertThat(RedisFailures.finalFailure(RedisFailures.Failure.FULL, true).code()).isEqualTo(ErrorCode.STORE_FULL);
        assertThat(RedisFailures.finalFailure(RedisFailures.Failure.DATA_INVALID, false).code())
                .isEqualTo(ErrorCode.STORE_DATA_INVALID);
    }

    /** A config that fails fast: no retries, short timeouts, connecting on first use. */
    private static Config quickFailing(String address) {
        Config config = new Config().setLazyInitialization(true);
        config.useSingleServer().setAddress(address).setRetryAttempts(0).setConnectTimeout(300).setTimeout(300)
                .setPingConnectionInterval(0).setConnectionMinimumIdleSize(1).setConnectionPoolSize(2);
        return config;
    }

    /** A loopback server that accepts connections and reads everything but never answers. */
    private static final class SilentServer implements AutoCloseable {
        private final ServerSocket server;
        private final List<Socket> clients = new ArrayList<>();
        private final Thread acceptor;

        SilentServer() throws IOException {
            server = new ServerSocket();
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            acceptor = new Thread(this::acceptForever, "silent-redis");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return server.getLocalPort();
        }

        private void acceptForever() {
            while (!server.isClosed()) {
                try {
                    Socket client = server.accept();
                    synchronized (clients) {
                        clients.add(client);
                    }
                    Thread reader = new Thread(() -> drain(client), "silent-redis-reader");
                    reader.setDaemon(true);
                    reader.start();
                } catch (IOException closed) {
                    return;
                }
            }
        }

        private static void drain(Socket client) {
            try (InputStream in = client.getInputStream()) {
                in.transferTo(OutputStream.nullOutputStream());
            } catch (IOException closed) {
                // The client went away.
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
            synchronized (clients) {
                for (Socket client : clients) {
                    client.close();
                }
            }
        }
    }
}
