package io.toolboundary.adapter.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RedisStoreOptionsTest {

    @Test
    void startsFromTheDocumentedDefaults() {
        RedisStoreOptions defaults = RedisStoreOptions.ofDefaults();

        assertThat(defaults.keyPrefix()).isEqualTo("toolboundary");
        assertThat(defaults.recordCapBytes()).isEmpty();
        assertThat(defaults.evictionPolicyCheck()).isEqualTo(RedisStoreOptions.EvictionPolicyCheck.REFUSE);
        assertThat(defaults.connectTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(defaults.responseTimeout()).isEqualTo(Duration.ofSeconds(1));
        assertThat(defaults.replicaAcknowledgement().isEmpty()).isTrue();
        assertThat(defaults.masterCheckInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(defaults.outbox()).isEqualTo(RedisStoreOptions.Outbox.NONE);
    }

    @Test
    void turnsExportOnWithKeysOrRecordsAndOffAgain() {
        assertThat(RedisStoreOptions.custom().outbox(RedisStoreOptions.Outbox.KEYS).build().outbox())
                .isEqualTo(RedisStoreOptions.Outbox.KEYS);
        RedisStoreOptions records = RedisStoreOptions.custom().outbox(RedisStoreOptions.Outbox.RECORDS).build();
        assertThat(records.outbox()).isEqualTo(RedisStoreOptions.Outbox.RECORDS);
        assertThat(records.toString()).contains("outbox=RECORDS");
        assertThat(RedisStoreOptions.custom().outbox(RedisStoreOptions.Outbox.RECORDS)
                .outbox(RedisStoreOptions.Outbox.NONE).build().outbox()).isEqualTo(RedisStoreOptions.Outbox.NONE);
        assertThatThrownBy(() -> RedisStoreOptions.custom().outbox(null))
                .isInstanceOf(NullPointerException.class).hasMessage("outbox is null");
    }

    @Test
    void asksForReplicaAcknowledgementOfAtLeastOneReplicaWithinOneMillisecondToOneMinute() {
        RedisStoreOptions options = RedisStoreOptions.custom().replicaAcknowledgement(2, Duration.ofMillis(250)).build();
        assertThat(options.replicaAcknowledgement().get())
                .isEqualTo(new RedisStoreOptions.ReplicaAcknowledgement(2, Duration.ofMillis(250)));
        assertThat(options.toString()).contains("replicaAcknowledgement=ReplicaAcknowledgement[replicas=2, timeout=PT0.25S]");
        assertThat(RedisStoreOptions.custom().replicaAcknowledgement(1, Duration.ofMinutes(1)).build()
                .replicaAcknowledgement().get().timeout()).isEqualTo(Duration.ofMinutes(1));

        for (int replicas : List.of(0, -1)) {
            assertThatThrownBy(() -> RedisStoreOptions.custom().replicaAcknowledgement(replicas, Duration.ofMillis(100)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("replicaAcknowledgement replicas must be at least 1, was " + replicas);
        }
        for (Duration invalid : List.of(Duration.ZERO, Duration.ofMillis(-1), Duration.ofNanos(1_500_000),
                Duration.ofMinutes(1).plusMillis(1))) {
            assertThatThrownBy(() -> RedisStoreOptions.custom().replicaAcknowledgement(1, invalid))
                    .as(invalid.toString())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("replicaAcknowledgement timeout must be 1 ms to 1 minute");
        }
        assertThatThrownBy(() -> RedisStoreOptions.custom().replicaAcknowledgement(1, null))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void looksForNewMastersEveryOneMillisecondToOneHour() {
        assertThat(RedisStoreOptions.custom().masterCheckInterval(Duration.ofMillis(1)).build().masterCheckInterval())
                .isEqualTo(Duration.ofMillis(1));
        assertThat(RedisStoreOptions.custom().masterCheckInterval(Duration.ofHours(1)).build().masterCheckInterval())
                .isEqualTo(Duration.ofHours(1));
        for (Duration invalid : List.of(Duration.ZERO, Duration.ofMillis(-5), Duration.ofNanos(10),
                Duration.ofHours(1).plusMillis(1))) {
            assertThatThrownBy(() -> RedisStoreOptions.custom().masterCheckInterval(invalid))
                    .as(invalid.toString())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("masterCheckInterval must be 1 ms to 1 hour");
        }
        assertThatThrownBy(() -> RedisStoreOptions.custom().masterCheckInterval(null))
                .isInstanceOf(NullPointerException.class).hasMessage("masterCheckInterval is null");
    }

    @Test
    void keepsTimeoutsWithinOneMillisecondAndOneMinute() {
        RedisStoreOptions options = RedisStoreOptions.custom().connectTimeout(Duration.ofMillis(1))
                .responseTimeout(Duration.ofMinutes(1)).build();
        assertThat(options.connectTimeout()).isEqualTo(Duration.ofMillis(1));
        assertThat(options.responseTimeout()).isEqualTo(Duration.ofMinutes(1));

        for (Duration invalid : List.of(Duration.ZERO, Duration.ofMillis(-1), Duration.ofNanos(1_500_000),
                Duration.ofMinutes(1).plusMillis(1))) {
            assertThatThrownBy(() -> RedisStoreOptions.custom().connectTimeout(invalid))
                    .as(invalid.toString())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("connectTimeout must be 1 ms to 1 minute");
            assertThatThrownBy(() -> RedisStoreOptions.custom().responseTimeout(invalid))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("responseTimeout must be 1 ms to 1 minute");
        }
        assertThatThrownBy(() -> RedisStoreOptions.custom().connectTimeout(null))
                .isInstanceOf(NullPointerException.class).hasMessage("connectTimeout is null");
    }

    @Test
    void rejectsAKeyPrefixThatCouldBreakTheHashTag() {
        for (String prefix : List.of("", "a{b", "a}b", "x".repeat(65), "with space")) {
            assertThatThrownBy(() -> RedisStoreOptions.custom().keyPrefix(prefix))
                    .as(prefix)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("keyPrefix must be 1 to 64 characters");
        }
    }
}
