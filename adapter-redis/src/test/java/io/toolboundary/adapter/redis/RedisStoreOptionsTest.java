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
