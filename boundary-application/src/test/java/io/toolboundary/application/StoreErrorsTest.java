package io.toolboundary.application;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.Refusal;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StoreErrorsTest {

    /** Every kind of refusal with the code it is reported with. */
    private static final Map<Refusal, ErrorCode> CODES = Map.of(
            new Refusal.RunStateLost(), ErrorCode.RUN_STATE_LOST,
            new Refusal.Duplicate(), ErrorCode.DUPLICATE_TOOL_CALL,
            new Refusal.IdReused(), ErrorCode.TOOL_CALL_ID_REUSED,
            new Refusal.BudgetExhausted(Refusal.Scope.RUN), ErrorCode.RUN_BUDGET_EXHAUSTED,
            new Refusal.BudgetExhausted(Refusal.Scope.TOOL), ErrorCode.TOOL_BUDGET_EXHAUSTED,
            new Refusal.TooLarge(), ErrorCode.RESULT_TOO_LARGE,
            new Refusal.NotUnicode(), ErrorCode.TEXT_NOT_UNICODE,
            new Refusal.Expired(), ErrorCode.RECORD_EXPIRED,
            new Refusal.Conflict(), ErrorCode.RECORD_CONFLICT,
            new Refusal.LeaseNotExpired(), ErrorCode.LEASE_NOT_EXPIRED);

    @Test
    void reportsEachKindOfRefusalWithItsOwnCode() {
        CODES.forEach((refusal, code) -> assertThat(StoreErrors.code(refusal)).as("%s", refusal).isEqualTo(code));
        assertThat(CODES.keySet().stream().map(Object::getClass).distinct())
                .as("every kind of refusal the domain permits")
                .containsExactlyInAnyOrderElementsOf(Arrays.asList(Refusal.class.getPermittedSubclasses()));
    }
}
