package io.toolboundary.application.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import io.toolboundary.application.RunContext;
import io.toolboundary.domain.RunId;
import io.vavr.control.Option;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Run tokens share the attempt tokens' alphabet and source; run contexts carry one once opened. */
class RunTokenTest {

    @Test
    void randomTokensAreValidAndNeverRepeatAnAttemptToken() {
        RunToken run = RunToken.random();
        AttemptToken attempt = AttemptToken.random();

        assertThat(run.value()).matches("[0-9a-f]{20}-[0-9]{1,19}");
        assertThat(run.value()).isNotEqualTo(attempt.value());
        assertThat(RunToken.random()).isNotEqualTo(run);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "has space", "under_score", "é", "colon:"})
    void refusesValuesOutsideTheAlphabet(String value) {
        assertThatIllegalArgumentException().isThrownBy(() -> new RunToken(value))
                .withMessage("value must be 1 to 64 characters of [A-Za-z0-9-]");
    }

    @Test
    void acceptsSixtyFourCharactersAndRefusesSixtyFive() {
        assertThat(new RunToken("a".repeat(64)).value()).hasSize(64);
        assertThatIllegalArgumentException().isThrownBy(() -> new RunToken("a".repeat(65)));
        assertThatNullPointerException().isThrownBy(() -> new RunToken(null)).withMessage("value is null");
    }

    @Test
    void aContextIsOpenedOnlyByATokenAndKeepsItWhenDeactivated() {
        RunContext run = RunContext.active(new RunId("run-1"), Instant.parse("2030-01-01T00:00:00Z"), 3);
        RunToken token = new RunToken("opened-1");

        assertThat(run.runToken()).isEqualTo(Option.none());
        assertThat(run.opened(token).runToken()).isEqualTo(Option.some(token));
        assertThat(run.opened(token).deactivated().runToken()).isEqualTo(Option.some(token));
        assertThat(run.opened(token).deactivated().active()).isFalse();
        assertThatNullPointerException().isThrownBy(() -> run.opened(null));
        assertThatNullPointerException().isThrownBy(() -> new RunContext(run.runId(), true, run.deadline(), 3, null));
    }
}
