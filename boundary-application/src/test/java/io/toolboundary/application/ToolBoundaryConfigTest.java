package io.toolboundary.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import java.time.Duration;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class ToolBoundaryConfigTest {

    @Test
    void refusesDuplicatesAsTheSpecificationSaysUnlessToldToReplay() {
        assertThat(ToolBoundaryConfig.ofDefaults().replayReadyDuplicates()).isFalse();
        assertThat(ToolBoundaryConfig.custom().build().replayReadyDuplicates()).isFalse();
        assertThat(ToolBoundaryConfig.custom().replayReadyDuplicates(true).build().replayReadyDuplicates()).isTrue();
        assertThat(ToolBoundaryConfig.custom().replayReadyDuplicates(true).replayReadyDuplicates(false).build()
                .replayReadyDuplicates()).isFalse();
        ToolBoundaryConfig custom = ToolBoundaryConfig.custom().recordTtl(Duration.ofMinutes(3)).maxJsonDepth(7).build();
        ToolBoundaryConfig replaying = custom.withReplayReadyDuplicates(true);
        assertThat(replaying.replayReadyDuplicates()).isTrue();
        assertThat(custom.replayReadyDuplicates()).as("the wither leaves its config as it was").isFalse();
        assertThat(replaying.toString()).isEqualTo(custom.toString()
                .replace("replayReadyDuplicates=false", "replayReadyDuplicates=true"));
        assertThat(replaying.withReplayReadyDuplicates(false).toString()).isEqualTo(custom.toString());
        assertThat(replaying.withReplayReadyDuplicates(false).replayReadyDuplicates()).isFalse();
    }

    @Test
    void theReplayWitherKeepsEveryOtherSetting() {
        ToolBoundaryConfig custom = ToolBoundaryConfig.custom().argumentsLimitBytes(10).rawResponseLimitBytes(20)
                .recordLimitBytes(30).agentResultLimitBytes(40).recordTtl(Duration.ofMinutes(3))
                .executionLease(Duration.ofSeconds(9)).storeTimeout(Duration.ofMillis(250)).maxJsonDepth(7)
                .maxNumberLength(8).build();

        ToolBoundaryConfig replaying = custom.withReplayReadyDuplicates(true);

        assertThat(replaying.limits()).isEqualTo(custom.limits());
        assertThat(replaying.argumentsLimitBytes()).isEqualTo(10);
        assertThat(replaying.rawResponseLimitBytes()).isEqualTo(20);
        assertThat(replaying.recordLimitBytes()).isEqualTo(30);
        assertThat(replaying.agentResultLimitBytes()).isEqualTo(40);
        assertThat(replaying.recordTtl()).isEqualTo(Duration.ofMinutes(3));
        assertThat(replaying.executionLease()).isEqualTo(Duration.ofSeconds(9));
        assertThat(replaying.storeTimeout()).isEqualTo(Duration.ofMillis(250));
        assertThat(replaying.maxJsonDepth()).isEqualTo(7);
        assertThat(replaying.maxNumberLength()).isEqualTo(8);
    }

    @Test
    void defaultsAreExact() {
        ToolBoundaryConfig config = ToolBoundaryConfig.ofDefaults();

        assertThat(config.limits()).isEqualTo(new Limits(65_536, 1_048_576, 1_310_720, 8_192));
        assertThat(config.argumentsLimitBytes()).isEqualTo(65_536);
        assertThat(config.rawResponseLimitBytes()).isEqualTo(1_048_576);
        assertThat(config.recordLimitBytes()).isEqualTo(1_310_720);
        assertThat(config.agentResultLimitBytes()).isEqualTo(8_192);
        assertThat(config.recordTtl()).isEqualTo(Duration.ofHours(24));
        assertThat(config.maxJsonDepth()).isEqualTo(64);
        assertThat(config.maxNumberLength()).isEqualTo(100);
    }

    @Test
    void defaultConstantsAreExact() {
        assertThat(ToolBoundaryConfig.DEFAULT_ARGUMENTS_BYTES).isEqualTo(65_536);
        assertThat(ToolBoundaryConfig.DEFAULT_RAW_RESPONSE_BYTES).isEqualTo(1_048_576);
        assertThat(ToolBoundaryConfig.DEFAULT_RECORD_BYTES).isEqualTo(1_310_720);
        assertThat(ToolBoundaryConfig.DEFAULT_AGENT_RESULT_BYTES).isEqualTo(8_192);
        assertThat(ToolBoundaryConfig.DEFAULT_RECORD_TTL).isEqualTo(Duration.ofHours(24));
        assertThat(ToolBoundaryConfig.DEFAULT_MAX_JSON_DEPTH).isEqualTo(64);
        assertThat(ToolBoundaryConfig.DEFAULT_MAX_NUMBER_LENGTH).isEqualTo(100);
    }

    @Test
    void aFreshBuilderBuildsTheDefaults() {
        ToolBoundaryConfig built = ToolBoundaryConfig.custom().build();
        ToolBoundaryConfig defaults = ToolBoundaryConfig.ofDefaults();

        assertThat(built.limits()).isEqualTo(defaults.limits());
        assertThat(built.recordTtl()).isEqualTo(defaults.recordTtl());
        assertThat(built.maxJsonDepth()).isEqualTo(defaults.maxJsonDepth());
        assertThat(built.maxNumberLength()).isEqualTo(defaults.maxNumberLength());
    }

    @Test
    void keepsCustomValues() {
        ToolBoundaryConfig config = ToolBoundaryConfig.custom()
                .argumentsLimitBytes(10)
                .rawResponseLimitBytes(20)
                .recordLimitBytes(30)
                .agentResultLimitBytes(40)
                .recordTtl(Duration.ofMillis(1))
                .maxJsonDepth(1)
                .maxNumberLength(1)
                .build();

        assertThat(config.limits()).isEqualTo(new Limits(10, 20, 30, 40));
        assertThat(config.argumentsLimitBytes()).isEqualTo(10);
        assertThat(config.rawResponseLimitBytes()).isEqualTo(20);
        assertThat(config.recordLimitBytes()).isEqualTo(30);
        assertThat(config.agentResultLimitBytes()).isEqualTo(40);
        assertThat(config.recordTtl()).isEqualTo(Duration.ofMillis(1));
        assertThat(config.maxJsonDepth()).isEqualTo(1);
        assertThat(config.maxNumberLength()).isEqualTo(1);
    }

    static Stream<Arguments> nonPositiveSettings() {
        return Stream.of(0L, -1L, (long) Integer.MIN_VALUE).flatMap(v -> Stream.of(
                Arguments.of("argumentsLimitBytes", v, (Consumer<ToolBoundaryConfig.Builder>) b -> b.argumentsLimitBytes(v)),
                Arguments.of("rawResponseLimitBytes", v, (Consumer<ToolBoundaryConfig.Builder>) b -> b.rawResponseLimitBytes(v)),
                Arguments.of("recordLimitBytes", v, (Consumer<ToolBoundaryConfig.Builder>) b -> b.recordLimitBytes(v)),
                Arguments.of("agentResultLimitBytes", v, (Consumer<ToolBoundaryConfig.Builder>) b -> b.agentResultLimitBytes(v)),
                Arguments.of("maxJsonDepth", v, (Consumer<ToolBoundaryConfig.Builder>) b -> b.maxJsonDepth((int) (long) v)),
                Arguments.of("maxNumberLength", v, (Consumer<ToolBoundaryConfig.Builder>) b -> b.maxNumberLength((int) (long) v))));
    }

    @ParameterizedTest(name = "{0}({1})")
    @MethodSource("nonPositiveSettings")
    void rejectsNonPositiveSettingAtOnceNamingIt(String field, long value, Consumer<ToolBoundaryConfig.Builder> set) {
        ToolBoundaryConfig.Builder builder = ToolBoundaryConfig.custom();

        assertThatIllegalArgumentException().isThrownBy(() -> set.accept(builder))
                .withMessage(field + " must be positive, was " + value);
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -1, 999_999, -86_400_000_000_000L})
    void rejectsRecordTtlUnderOneMillisecondNamingIt(long nanos) {
        Duration ttl = Duration.ofNanos(nanos);

        assertThatIllegalArgumentException().isThrownBy(() -> ToolBoundaryConfig.custom().recordTtl(ttl))
                .withMessageStartingWith("recordTtl ");
    }

    @Test
    void acceptsRecordTtlOfExactlyOneMillisecond() {
        assertThat(ToolBoundaryConfig.custom().recordTtl(Duration.ofNanos(1_000_000)).build().recordTtl())
                .isEqualTo(Duration.ofMillis(1));
    }

    @Test
    void rejectsNullRecordTtlNamingIt() {
        assertThatNullPointerException().isThrownBy(() -> ToolBoundaryConfig.custom().recordTtl(null))
                .withMessage("recordTtl is null");
    }

    @Test
    void rejectsARequestLimitOverTheRecordLimit() {
        ToolBoundaryConfig.Builder builder = ToolBoundaryConfig.custom().recordLimitBytes(1000).rawResponseLimitBytes(1000)
                .argumentsLimitBytes(1001);

        assertThatIllegalArgumentException().isThrownBy(builder::build)
                .withMessageContaining("argumentsLimitBytes").withMessageContaining("recordLimitBytes");
    }

    @Test
    void rejectsARawResponseLimitOverTheRecordLimit() {
        ToolBoundaryConfig.Builder builder = ToolBoundaryConfig.custom().recordLimitBytes(1000).argumentsLimitBytes(1000)
                .rawResponseLimitBytes(1001);

        assertThatIllegalArgumentException().isThrownBy(builder::build)
                .withMessageContaining("rawResponseLimitBytes").withMessageContaining("recordLimitBytes");
    }

    @Test
    void rejectsTheDefaultRawLimitWhenTheRecordLimitIsLowered() {
        ToolBoundaryConfig.Builder builder = ToolBoundaryConfig.custom().recordLimitBytes(1_048_575);

        assertThatIllegalArgumentException().isThrownBy(builder::build);
    }

    @Test
    void acceptsRequestAndRawLimitsEqualToTheRecordLimit() {
        ToolBoundaryConfig config = ToolBoundaryConfig.custom().recordLimitBytes(1000).argumentsLimitBytes(1000)
                .rawResponseLimitBytes(1000).build();

        assertThat(config.limits()).isEqualTo(new Limits(1000, 1000, 1000, 8_192));
    }

    @Test
    void executionLeaseDefaultsToFiveMinutes() {
        assertThat(ToolBoundaryConfig.DEFAULT_EXECUTION_LEASE).isEqualTo(Duration.ofMinutes(5));
        assertThat(ToolBoundaryConfig.ofDefaults().executionLease()).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void keepsACustomExecutionLease() {
        assertThat(ToolBoundaryConfig.custom().executionLease(Duration.ofMillis(1)).build().executionLease())
                .isEqualTo(Duration.ofMillis(1));
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -1, 999_999, -60_000_000_000L})
    void rejectsExecutionLeaseUnderOneMillisecondNamingIt(long nanos) {
        Duration lease = Duration.ofNanos(nanos);

        assertThatIllegalArgumentException().isThrownBy(() -> ToolBoundaryConfig.custom().executionLease(lease))
                .withMessageStartingWith("executionLease ");
    }

    @Test
    void rejectsNullExecutionLeaseNamingIt() {
        assertThatNullPointerException().isThrownBy(() -> ToolBoundaryConfig.custom().executionLease(null))
                .withMessage("executionLease is null");
    }
}
