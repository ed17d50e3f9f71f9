package io.toolboundary.adapter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.domain.RunId;
import org.junit.jupiter.api.Test;

/** The SCAN pattern of a run's records: the literal start, glob characters escaped, then {@code *}. */
class RedisKeysPatternTest {

    @Test
    void escapesEveryGlobCharacterAndNothingElse() {
        assertThat(RedisKeys.globEscaped("a*b?c[d]e\\f")).isEqualTo("a\\*b\\?c\\[d\\]e\\\\f");
        assertThat(RedisKeys.globEscaped("tb:{run-1.a:b_c}:call:")).isEqualTo("tb:{run-1.a:b_c}:call:");
    }

    @Test
    void matchesOnlyTheRunsRecordKeys() {
        RedisKeys keys = new RedisKeys("toolboundary");

        assertThat(keys.recordPattern(new RunId("run.1:x"))).isEqualTo("toolboundary:{run.1:x}:call:*");
        assertThat(keys.recordsOf(new RunId("run.1:x"))).isEqualTo("toolboundary:{run.1:x}:call:");
    }
}
