package io.toolboundary.testsupport.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class SentinelGroupTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final Duration FAILOVER = Duration.ofSeconds(15);

    @Test
    void losesTheWriteTheReplicaMissedWhileItsLinkWasCutWhenTheMasterDiesAndTheReplicaIsPromoted() {
        try (SentinelGroup group = SentinelGroup.start()) {
            assertThat(group.agreedMaster()).contains(group.master());
            assertThat(group.sentinelUrls()).hasSize(2).allSatisfy(url -> assertThat(url).matches("redis://127\\.0\\.0\\.1:\\d+"));
            try (RedisAdmin master = RedisAdmin.open(group.master(), TIMEOUT)) {
                master.command("SET", "tbsentinel:before-cut", "replicated");
                assertThat(master.command("WAIT", "1", "1000")).isEqualTo(1L);
                group.cutReplicationLink();
                master.command("SET", "tbsentinel:during-cut", "missed");
            }

            group.killMaster();
            RedisEndpoint promoted = group.awaitFailover(FAILOVER);

            assertThat(promoted).as("the sentinels name the replica by its own address").isEqualTo(group.replica());
            assertThat(group.agreedMaster()).contains(promoted);
            try (RedisAdmin newMaster = RedisAdmin.open(promoted, TIMEOUT)) {
                assertThat(newMaster.role()).isEqualTo("master");
                assertThat(newMaster.command("GET", "tbsentinel:before-cut")).isEqualTo("replicated");
                assertThat(newMaster.command("GET", "tbsentinel:during-cut")).as("acknowledged, then lost")
                        .isEqualTo(RedisAdmin.Nil.NIL);
                assertThat(newMaster.command("SET", "tbsentinel:after", "written")).isEqualTo("OK");
            }
        }
    }

    @Test
    void countsTheReplicaInWaitOnlyWhileTheLinkIsUpAndResyncsItWhenRestored() {
        List<RedisEndpoint> everyProcess;
        try (SentinelGroup group = SentinelGroup.start();
                RedisAdmin master = RedisAdmin.open(group.master(), TIMEOUT)) {
            everyProcess = new ArrayList<>(List.of(group.master(), group.replica()));
            everyProcess.addAll(group.sentinels());
            master.command("SET", "tbsentinel:a", "1");
            assertThat(master.command("WAIT", "1", "1000")).isEqualTo(1L);

            group.cutReplicationLink();
            assertThat(group.replicationLinkCut()).isTrue();
            master.command("SET", "tbsentinel:b", "2");
            assertThat(master.command("WAIT", "1", "1000")).isEqualTo(0L);
            try (RedisAdmin replica = RedisAdmin.open(group.replica(), TIMEOUT)) {
                assertThat(replica.command("GET", "tbsentinel:a")).isEqualTo("1");
                assertThat(replica.command("GET", "tbsentinel:b")).isEqualTo(RedisAdmin.Nil.NIL);
            }

            group.restoreReplicationLink();
            assertThat(group.replicationLinkCut()).isFalse();
            try (RedisAdmin replica = RedisAdmin.open(group.replica(), TIMEOUT)) {
                assertThat(replica.command("GET", "tbsentinel:b")).as("received once the link is back").isEqualTo("2");
            }
            master.command("SET", "tbsentinel:c", "3");
            assertThat(master.command("WAIT", "1", "1000")).isEqualTo(1L);
            assertThat(group.agreedMaster()).as("no failover: the sentinels saw the master all along")
                    .contains(group.master());

            try (RedisAdmin replica = RedisAdmin.open(group.replica(), TIMEOUT)) {
                replica.command("REPLICAOF", group.master().host(), Integer.toString(group.master().port()));
            }
            assertThatThrownBy(group::cutReplicationLink).as("as after a sentinel's +fix-slave-config")
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("not through the proxy");
            assertThat(group.replicationLinkCut()).isFalse();
        }

        assertThat(everyProcess).noneMatch(LocalRedisProcesses::answersPing);
        assertThat(directoriesOf(everyProcess)).isEmpty();
    }

    /** The temporary directories RedisServerProcess made for these ports that still exist. */
    private static List<Path> directoriesOf(List<RedisEndpoint> endpoints) {
        List<Path> left = new ArrayList<>();
        try (Stream<Path> temporary = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            temporary.filter(path -> endpoints.stream().anyMatch(endpoint -> path.getFileName().toString()
                    .startsWith("toolboundary-redis-fault-" + endpoint.port() + "-"))).forEach(left::add);
        } catch (IOException failure) {
            throw new AssertionError("cannot list the temporary directory", failure);
        }
        return left;
    }
}
