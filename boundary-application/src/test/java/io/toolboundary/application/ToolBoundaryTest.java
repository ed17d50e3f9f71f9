package io.toolboundary.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.InvocationStart;
import io.toolboundary.application.spi.RunOpening;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.application.spi.ToolCallIdPage;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.toolboundary.domain.internal.Utf8;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class ToolBoundaryTest {

    static final Instant NOW = Instant.parse("2025-03-01T10:00:00Z");
    static final String RUN = "run-1";
    static final String CALL = "call-1";
    static final String ARGUMENTS = "{\"q\":\"checkout\"}";
    static final long REQUEST_LIMIT = 64;
    static final AttemptToken TOKEN = new AttemptToken("attempt-1");

    final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    final ScriptedStore store = ScriptedStore.confirming();
    final ToolExecutor executor = mock(ToolExecutor.class);
    final Projector projector = mock(Projector.class);
    final ToolExecutor writableExecutor = mock(ToolExecutor.class);
    final Projector writableProjector = mock(Projector.class);

    static RunContext run() {
        return RunContext.active(new RunId(RUN), NOW.plusSeconds(60), 10).opened(TestRuns.TOKEN);
    }

    static ToolCallEnvelope envelope() {
        return ToolCallEnvelope.of(RUN, CALL, "search", ARGUMENTS);
    }

    /** A boundary with a read-only "search" and a writable "delete" tool, both backed by mocks. */
    ToolBoundaryBuilder boundary(CanonicalInvocationStore store, AccessPolicy policy) {
        return ToolBoundary.builder()
                .store(store)
                .accessPolicy(policy)
                .clock(clock)
                .tokens(() -> TOKEN)
                .config(ToolBoundaryConfig.custom().argumentsLimitBytes(REQUEST_LIMIT).build())
                .tool(ToolBinding.readOnly("search", executor, projector))
                .tool(ToolBinding.writable("delete", writableExecutor, writableProjector));
    }

    /** The arguments {@code {"q":"…"}} taking exactly {@code bytes} in UTF-8, ending in a character of {@code lastWidth} bytes. */
    static String argumentsOf(long bytes, int lastWidth) {
        String last = charOfWidth(lastWidth);
        String text = "{\"q\":\"" + "x".repeat((int) bytes - 8 - lastWidth) + last + "\"}";
        assertThat(Projector.utf8Length(text)).isEqualTo(bytes);
        return text;
    }

    /** One character that takes {@code width} bytes in UTF-8, 1 to 4. */
    static String charOfWidth(int width) {
        return switch (width) {
            case 1 -> "x";
            case 2 -> "\u00e9";
            case 3 -> "\u20ac";
            case 4 -> "\ud83d\ude00";
            default -> throw new IllegalArgumentException("lastWidth must be 1 to 4, was " + width);
        };
    }

    record Preflight(String name, RunContext run, ToolCallEnvelope envelope, AccessPolicy policy, ErrorCode expected) {
        @Override
        public String toString() {
            return name + " -> " + expected;
        }
    }

    static Preflight rejected(String name, ToolCallEnvelope envelope, ErrorCode expected) {
        return new Preflight(name, run(), envelope, AccessPolicy.allowAll(), expected);
    }

    static Stream<Preflight> preflightRejections() {
        AccessPolicy throwing = (run, tool) -> {
            throw new IllegalStateException("policy backend down");
        };
        return Stream.of(
                rejected("no tool_call_id", ToolCallEnvelope.of(RUN, null, "search", ARGUMENTS), ErrorCode.TOOL_CALL_ID_MISSING),
                rejected("blank tool_call_id", ToolCallEnvelope.of(RUN, " \t", "search", ARGUMENTS), ErrorCode.TOOL_CALL_ID_MISSING),
                rejected("tool_call_id with a space", ToolCallEnvelope.of(RUN, "call 1", "search", ARGUMENTS), ErrorCode.TOOL_CALL_ID_UNSAFE),
                rejected("tool_call_id with CR LF", ToolCallEnvelope.of(RUN, "call-1\r\n", "search", ARGUMENTS), ErrorCode.TOOL_CALL_ID_UNSAFE),
                rejected("tool_call_id with a hash tag brace", ToolCallEnvelope.of(RUN, "{call-1}", "search", ARGUMENTS), ErrorCode.TOOL_CALL_ID_UNSAFE),
                rejected("tool_call_id of 129 chars", ToolCallEnvelope.of(RUN, "c".repeat(129), "search", ARGUMENTS), ErrorCode.TOOL_CALL_ID_UNSAFE),
                rejected("no run id", ToolCallEnvelope.of(null, CALL, "search", ARGUMENTS), ErrorCode.RUN_ID_INVALID),
                rejected("unsafe run id", ToolCallEnvelope.of("run*", CALL, "search", ARGUMENTS), ErrorCode.RUN_ID_INVALID),
                rejected("another run", ToolCallEnvelope.of("run-2", CALL, "search", ARGUMENTS), ErrorCode.RUN_MISMATCH),
                rejected("run id differing only in case", ToolCallEnvelope.of("RUN-1", CALL, "search", ARGUMENTS), ErrorCode.RUN_MISMATCH),
                new Preflight("inactive run", run().deactivated(), envelope(), AccessPolicy.allowAll(), ErrorCode.RUN_INACTIVE),
                new Preflight("deadline now", RunContext.active(new RunId(RUN), NOW, 10).opened(TestRuns.TOKEN), envelope(), AccessPolicy.allowAll(),
                        ErrorCode.RUN_DEADLINE_EXCEEDED),
                new Preflight("deadline passed", RunContext.active(new RunId(RUN), NOW.minusMillis(1), 10).opened(TestRuns.TOKEN), envelope(),
                        AccessPolicy.allowAll(), ErrorCode.RUN_DEADLINE_EXCEEDED),
                rejected("no tool name", ToolCallEnvelope.of(RUN, CALL, null, ARGUMENTS), ErrorCode.TOOL_NAME_INVALID),
                rejected("unsafe tool name", ToolCallEnvelope.of(RUN, CALL, "search?", ARGUMENTS), ErrorCode.TOOL_NAME_INVALID),
                rejected("unknown tool", ToolCallEnvelope.of(RUN, CALL, "Search", ARGUMENTS), ErrorCode.TOOL_NOT_REGISTERED),
                new Preflight("policy denies", run(), envelope(), AccessPolicy.allowOnly("delete"), ErrorCode.TOOL_NOT_AUTHORIZED),
                new Preflight("policy throws", run(), envelope(), throwing, ErrorCode.TOOL_NOT_AUTHORIZED),
                new Preflight("the harness's own policy denies", run(), envelope(), (r, t) -> false, ErrorCode.TOOL_NOT_AUTHORIZED),
                rejected("writable tool", ToolCallEnvelope.of(RUN, CALL, "delete", ARGUMENTS), ErrorCode.TOOL_NOT_READ_ONLY),
                rejected("arguments one byte over, ending in 1 byte", ToolCallEnvelope.of(RUN, CALL, "search", argumentsOf(REQUEST_LIMIT + 1, 1)),
                        ErrorCode.ARGUMENTS_TOO_LARGE),
                rejected("arguments one byte over, ending in 2 bytes", ToolCallEnvelope.of(RUN, CALL, "search", argumentsOf(REQUEST_LIMIT + 1, 2)),
                        ErrorCode.ARGUMENTS_TOO_LARGE),
                rejected("arguments one byte over, ending in 3 bytes", ToolCallEnvelope.of(RUN, CALL, "search", argumentsOf(REQUEST_LIMIT + 1, 3)),
                        ErrorCode.ARGUMENTS_TOO_LARGE),
                rejected("arguments one byte over, ending in 4 bytes", ToolCallEnvelope.of(RUN, CALL, "search", argumentsOf(REQUEST_LIMIT + 1, 4)),
                        ErrorCode.ARGUMENTS_TOO_LARGE),
                rejected("no arguments", ToolCallEnvelope.of(RUN, CALL, "search", null), ErrorCode.ARGUMENTS_INVALID),
                rejected("array arguments", ToolCallEnvelope.of(RUN, CALL, "search", "[]"), ErrorCode.ARGUMENTS_INVALID),
                rejected("duplicate keys", ToolCallEnvelope.of(RUN, CALL, "search", "{\"q\":1,\"q\":2}"), ErrorCode.ARGUMENTS_INVALID),
                rejected("trailing content", ToolCallEnvelope.of(RUN, CALL, "search", "{}{}"), ErrorCode.ARGUMENTS_INVALID),
                rejected("lone surrogate in arguments", ToolCallEnvelope.of(RUN, CALL, "search", "{\"q\":\"\uD800\"}"),
                        ErrorCode.TEXT_NOT_UNICODE));
    }

    @Nested
    class Preflighting {

        @ParameterizedTest(name = "{0}")
        @MethodSource("io.toolboundary.application.ToolBoundaryTest#preflightRejections")
        void rejectsWithoutTouchingStoreExecutorOrProjector(Preflight call) {
            ToolBoundary boundary = boundary(store, call.policy()).build();

            Either<BoundaryError, AgentResult> outcome = boundary.invoke(call.run(), call.envelope());

            // A call over the arguments limit is told the limit it met.
            BoundaryError expected = call.expected() == ErrorCode.ARGUMENTS_TOO_LARGE
                    ? BoundaryError.overLimit(ErrorCode.ARGUMENTS_TOO_LARGE, REQUEST_LIMIT)
                    : BoundaryError.of(call.expected());
            assertThat(outcome).isEqualTo(Either.left(expected));
            assertThat(store.touched()).as("store touched").isFalse();
            verifyNoInteractions(executor, projector, writableExecutor, writableProjector);
        }

        @Test
        @DisplayName("Cross-Run Tool Call is rejected")
        void rejectsCrossRunCall() {
            ToolBoundary boundary = boundary(store, AccessPolicy.allowAll()).build();

            Either<BoundaryError, AgentResult> outcome = boundary.invoke(run(), ToolCallEnvelope.of("run-2", CALL, "search", ARGUMENTS));

            assertThat(outcome.getLeft().code()).isEqualTo(ErrorCode.RUN_MISMATCH);
            assertThat(store.touched()).as("store touched").isFalse();
            verifyNoInteractions(executor, projector);
        }

        @Test
        @DisplayName("Unauthorized or writable Tool is rejected")
        void rejectsUnauthorizedOrWritableTool() {
            ToolBoundary denying = boundary(store, AccessPolicy.allowOnly("delete")).build();
            ToolBoundary granting = boundary(store, AccessPolicy.allowAll()).build();

            assertThat(denying.invoke(run(), envelope()).getLeft().code()).isEqualTo(ErrorCode.TOOL_NOT_AUTHORIZED);
            assertThat(granting.invoke(run(), ToolCallEnvelope.of(RUN, CALL, "delete", ARGUMENTS)).getLeft().code())
                    .isEqualTo(ErrorCode.TOOL_NOT_READ_ONLY);
            assertThat(store.touched()).as("store touched").isFalse();
            verifyNoInteractions(executor, projector, writableExecutor, writableProjector);
        }

        @ParameterizedTest(name = "ending in a {0}-byte character")
        @ValueSource(ints = {1, 2, 3, 4})
        void passesArgumentsOfExactlyTheRequestLimitToTheStore(int lastWidth) {
            ScriptedStore scripted = ScriptedStore.refusingBegin(BoundaryError.of(ErrorCode.RUN_BUDGET_EXHAUSTED));
            String arguments = argumentsOf(REQUEST_LIMIT, lastWidth);

            Either<BoundaryError, AgentResult> outcome = boundary(scripted, AccessPolicy.allowAll()).build()
                    .invoke(run(), ToolCallEnvelope.of(RUN, CALL, "search", arguments));

            assertThat(outcome.getLeft().code()).isEqualTo(ErrorCode.RUN_BUDGET_EXHAUSTED);
            assertThat(scripted.begins).singleElement()
                    .satisfies(start -> assertThat(start.record().arguments()).isSameAs(arguments));
        }

        @Test
        void passesARunWhoseDeadlineIsOneNanosecondAway() {
            ScriptedStore scripted = ScriptedStore.refusingBegin(BoundaryError.of(ErrorCode.STORE_UNAVAILABLE));

            boundary(scripted, AccessPolicy.allowAll()).build()
                    .invoke(RunContext.active(new RunId(RUN), NOW.plusNanos(1), 10).opened(TestRuns.TOKEN), envelope());

            assertThat(scripted.begins).hasSize(1);
        }

        @Test
        void beginsWithTheExactIdsRequestTtlAndBudgets() {
            ScriptedStore scripted = ScriptedStore.refusingBegin(BoundaryError.of(ErrorCode.STORE_UNAVAILABLE));
            ToolBoundary boundary = ToolBoundary.builder().store(scripted).accessPolicy(AccessPolicy.allowAll()).clock(clock)
                    .tokens(() -> TOKEN)
                    .tool(ToolBinding.readOnly("search", executor, projector).withCallBudgetPerRun(3))
                    .build();

            boundary.invoke(RunContext.active(new RunId(RUN), NOW.plusSeconds(1), 7).opened(TestRuns.TOKEN),
                    ToolCallEnvelope.of(RUN, "Call_01:x.Y-z", "search", ARGUMENTS));

            InvocationStart start = scripted.begins.get(0);
            assertThat(start.record().key()).isEqualTo(InvocationKey.of(new RunId(RUN), new ToolCallId("Call_01:x.Y-z")));
            assertThat(start.record().key().toolCallId().value()).isEqualTo("Call_01:x.Y-z");
            assertThat(start.record().tool()).isEqualTo(new ToolName("search"));
            assertThat(start.record().arguments()).isEqualTo(ARGUMENTS);
            assertThat(start.record().requestFingerprint()).matches("[0-9a-f]{64}");
            assertThat(start.record().createdAt()).isEqualTo(NOW);
            assertThat(start.token()).isEqualTo(TOKEN);
            assertThat(start.ttl()).isEqualTo(ToolBoundaryConfig.DEFAULT_RECORD_TTL);
            assertThat(start.runCallBudget()).isEqualTo(7);
            assertThat(start.toolCallBudget()).isEqualTo(3);
            verifyNoInteractions(executor, projector);
        }
    }

    @Nested
    class StoreRefusal {

        @ParameterizedTest
        @EnumSource(value = ErrorCode.class, names = {"DUPLICATE_TOOL_CALL", "TOOL_CALL_ID_REUSED", "RUN_BUDGET_EXHAUSTED",
            "TOOL_BUDGET_EXHAUSTED", "RESULT_TOO_LARGE", "STORE_UNAVAILABLE", "STORE_FULL", "STORE_DATA_INVALID",
            "RECORD_CONFLICT"})
        void neverExecutesWhenBeginIsRefused(ErrorCode refusal) {
            ScriptedStore scripted = ScriptedStore.refusingBegin(BoundaryError.of(refusal));

            Either<BoundaryError, AgentResult> outcome = boundary(scripted, AccessPolicy.allowAll()).build()
                    .invoke(run(), envelope());

            // A spent budget is told with the budget the call met: the run's 10 calls, the tool's default.
            BoundaryError expected = switch (refusal) {
                case RUN_BUDGET_EXHAUSTED -> BoundaryError.overLimit(refusal, 10);
                case TOOL_BUDGET_EXHAUSTED -> BoundaryError.overLimit(refusal, Integer.MAX_VALUE);
                default -> BoundaryError.of(refusal);
            };
            assertThat(outcome).isEqualTo(Either.left(expected));
            assertThat(scripted.begins).hasSize(1);
            assertThat(scripted.completions).isEmpty();
            verifyNoInteractions(executor, projector);
        }

        @Test
        void endsItsOwnRecordInErrorOnceWhenTheBeginOutcomeIsUnknown() {
            ScriptedStore scripted = ScriptedStore.refusingBegin(BoundaryError.of(ErrorCode.STORE_OUTCOME_UNKNOWN));

            Either<BoundaryError, AgentResult> outcome = boundary(scripted, AccessPolicy.allowAll()).build()
                    .invoke(run(), envelope());

            assertThat(outcome).isEqualTo(Either.left(BoundaryError.of(ErrorCode.STORE_OUTCOME_UNKNOWN)));
            assertEndedOwnRecordOnce(scripted);
            verifyNoInteractions(executor, projector);
        }

        @ParameterizedTest
        @EnumSource(value = ErrorCode.class, names = {"RECORD_EXPIRED", "RECORD_CONFLICT", "STORE_OUTCOME_UNKNOWN",
            "STORE_UNAVAILABLE"})
        void triesToEndItsOwnRecordOnlyOnceEvenWhenThatFails(ErrorCode completeRefusal) {
            ScriptedStore scripted = ScriptedStore.refusing(BoundaryError.of(ErrorCode.STORE_OUTCOME_UNKNOWN),
                    BoundaryError.of(completeRefusal));

            Either<BoundaryError, AgentResult> outcome = boundary(scripted, AccessPolicy.allowAll()).build()
                    .invoke(run(), envelope());

            assertThat(outcome).isEqualTo(Either.left(BoundaryError.of(ErrorCode.STORE_OUTCOME_UNKNOWN)));
            assertEndedOwnRecordOnce(scripted);
            verifyNoInteractions(executor, projector);
        }

        @Test
        void givesBeginAtMostHalfTheStoreBudgetAndNeverMoreThanTheRunHasLeft() {
            ToolBoundaryConfig config = ToolBoundaryConfig.custom().storeTimeout(Duration.ofSeconds(2)).build();
            ScriptedStore roomy = ScriptedStore.refusingBegin(BoundaryError.of(ErrorCode.STORE_UNAVAILABLE));
            ScriptedStore hurried = ScriptedStore.refusingBegin(BoundaryError.of(ErrorCode.STORE_UNAVAILABLE));

            boundary(roomy, AccessPolicy.allowAll()).config(config).build().invoke(run(), envelope());
            boundary(hurried, AccessPolicy.allowAll()).config(config).build()
                    .invoke(RunContext.active(new RunId(RUN), NOW.plusMillis(300), 10).opened(TestRuns.TOKEN), envelope());

            assertThat(roomy.beginTimeouts).singleElement().satisfies(timeout ->
                    assertThat(timeout).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(1)));
            assertThat(hurried.beginTimeouts).singleElement().satisfies(timeout ->
                    assertThat(timeout).isPositive().isLessThanOrEqualTo(Duration.ofMillis(300)));
        }

        @ParameterizedTest
        @EnumSource(value = ErrorCode.class, names = {"STORE_OUTCOME_UNKNOWN", "STORE_UNAVAILABLE"})
        void triesAnUnconfirmedCompletionOnceMoreThenHandsTheRecordOver(ErrorCode failure) throws Exception {
            when(executor.execute(org.mockito.ArgumentMatchers.any())).thenReturn("raw rows");
            when(projector.project(org.mockito.ArgumentMatchers.any(), org.mockito.ArgumentMatchers.any()))
                    .thenReturn(Projection.evidenceFound("2 rows"));
            ScriptedStore scripted = ScriptedStore.refusingCompleteAndEnd(BoundaryError.of(failure));
            java.util.List<AttemptToken> handedOver = new java.util.ArrayList<>();
            BoundaryListener harness = new BoundaryListener() {
                @Override
                public void onUnfinished(InvocationKey key, AttemptToken token) {
                    handedOver.add(token);
                }
            };
            ToolBoundaryConfig config = ToolBoundaryConfig.custom().storeTimeout(Duration.ofSeconds(2)).build();

            Either<BoundaryError, AgentResult> outcome = boundary(scripted, AccessPolicy.allowAll()).config(config)
                    .listener(harness).build().invoke(run(), envelope());

            // The tool ran: "unavailable" (nothing happened) would not be true.
            assertThat(outcome).isEqualTo(Either.left(BoundaryError.of(ErrorCode.STORE_OUTCOME_UNKNOWN)));
            assertThat(scripted.completions).hasSize(2);
            assertThat(scripted.completeTimeouts).allSatisfy(timeout ->
                    assertThat(timeout).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(2)));
            assertThat(handedOver).containsExactly(TOKEN);
        }

        private void assertEndedOwnRecordOnce(ScriptedStore scripted) {
            assertThat(scripted.begins).hasSize(1);
            assertThat(scripted.completions).isEmpty();
            assertThat(scripted.ends).singleElement().satisfies(end -> {
                assertThat(end.token()).isEqualTo(TOKEN).isEqualTo(scripted.begins.get(0).token());
                assertThat(end.key()).isEqualTo(InvocationKey.of(new RunId(RUN), new ToolCallId(CALL)));
                assertThat(end.code()).isEqualTo(ErrorCode.STORE_OUTCOME_UNKNOWN);
            });
        }
    }

    @Nested
    class Listener {

        /** A listener that counts its calls and throws from every one of them. */
        static final class ThrowingListener implements BoundaryListener {
            final AtomicInteger calls = new AtomicInteger();

            private void boom() {
                calls.incrementAndGet();
                throw new IllegalStateException("listener failed");
            }

            @Override
            public void onStarted(RunContext run, ToolCallEnvelope envelope) {
                boom();
            }

            @Override
            public void onFinished(RunContext run, ToolCallEnvelope envelope, Either<BoundaryError, AgentResult> outcome) {
                boom();
            }

            @Override
            public void onRejected(ToolCallEnvelope envelope, BoundaryError error) {
                boom();
            }

            @Override
            public void onToolFailed(InvocationKey key, ToolName tool, Class<? extends Throwable> failure) {
                boom();
            }

            @Override
            public void onProjectorFailed(InvocationKey key, ToolName tool, Class<? extends Throwable> failure) {
                boom();
            }

            @Override
            public void onStoreFailed(InvocationKey key, BoundaryError error) {
                boom();
            }

            @Override
            public void onUnexpectedFailure(Class<? extends Throwable> failure) {
                boom();
            }

            @Override
            public void onCompleted(CanonicalRecord.Final record) {
                boom();
            }

            @Override
            public void onExecuted(InvocationKey key, ToolName tool, java.time.Duration elapsed) {
                boom();
            }

            @Override
            public void onProjected(InvocationKey key, ToolName tool, java.time.Duration elapsed) {
                boom();
            }
        }

        enum Scenario {
            SUCCESS, NO_EVIDENCE, PREFLIGHT_REJECTED, BEGIN_REFUSED, TOOL_THROWS, PROJECTOR_THROWS, COMPLETE_REFUSED,
            STORE_THROWS,
            /** The begin's outcome is unknown; the clean-up ends the record by token. */
            BEGIN_UNKNOWN_ENDED,
            /** The store refuses the completion (full); the clean-up ends the record small. */
            COMPLETE_FULL_ENDED
        }

        record Observed(Either<BoundaryError, AgentResult> outcome, java.util.List<ScriptedStore.Completion> completions) {
        }

        private Observed run(Scenario scenario, BoundaryListener listener) {
            ScriptedStore scripted = switch (scenario) {
                case BEGIN_REFUSED -> ScriptedStore.refusingBegin(BoundaryError.of(ErrorCode.DUPLICATE_TOOL_CALL));
                case COMPLETE_REFUSED -> ScriptedStore.refusingComplete(BoundaryError.of(ErrorCode.RECORD_EXPIRED));
                case BEGIN_UNKNOWN_ENDED -> ScriptedStore.refusingBegin(BoundaryError.of(ErrorCode.STORE_OUTCOME_UNKNOWN));
                case COMPLETE_FULL_ENDED -> ScriptedStore.refusingComplete(BoundaryError.of(ErrorCode.STORE_FULL));
                default -> ScriptedStore.confirming();
            };
            scripted.endsRecords = true;
            CanonicalInvocationStore chosen = scenario == Scenario.STORE_THROWS ? throwingStore() : scripted;
            ToolExecutor tool = scenario == Scenario.TOOL_THROWS
                    ? request -> {
                        throw new IOException("secret connection string");
                    }
                    : request -> "raw rows";
            Projector projection = switch (scenario) {
                case PROJECTOR_THROWS -> (request, raw) -> {
                    throw new IllegalStateException("secret");
                };
                case NO_EVIDENCE -> (request, raw) -> Projection.noEvidence("nothing", "logs 10:00-10:15");
                default -> (request, raw) -> Projection.evidenceFound("2 rows");
            };
            ToolBoundary boundary = ToolBoundary.builder().store(chosen).accessPolicy(AccessPolicy.allowAll()).clock(clock)
                    .tokens(() -> TOKEN).listener(listener)
                    .tool(ToolBinding.readOnly("search", tool, projection))
                    .build();
            ToolCallEnvelope call = scenario == Scenario.PREFLIGHT_REJECTED
                    ? ToolCallEnvelope.of("run-2", CALL, "search", ARGUMENTS)
                    : envelope();
            return new Observed(boundary.invoke(ToolBoundaryTest.run(), call), scripted.completions);
        }

        private static CanonicalInvocationStore throwingStore() {
            return new CanonicalInvocationStore() {
                @Override
                public Either<StoreFailure, RunToken> openRun(RunOpening opening, java.time.Duration timeout) {
                    throw new IllegalStateException("store bug");
                }

                @Override
                public Either<StoreFailure, CanonicalRecord.Projecting> begin(InvocationStart start, java.time.Duration timeout) {
                    throw new IllegalStateException("store bug");
                }

                @Override
                public Either<StoreFailure, CanonicalRecord.Final> complete(AttemptToken token, CanonicalRecord.Final outcome,
                    java.time.Duration timeout) {
                    throw new IllegalStateException("store bug");
                }

                @Override
                public Either<StoreFailure, CanonicalRecord.Failed> abandon(InvocationKey key, Instant now, java.time.Duration timeout) {
                    throw new IllegalStateException("store bug");
                }

                @Override
                public Either<StoreFailure, CanonicalRecord.Final> end(InvocationKey key, AttemptToken token,
                        io.toolboundary.domain.ErrorCode code, Instant now, java.time.Duration timeout) {
                    throw new IllegalStateException("store bug");
                }

                @Override
                public Either<StoreFailure, ToolCallIdPage> toolCallIds(ToolCallIdPage.Request request, java.time.Duration timeout) {
                    return Either.right(new ToolCallIdPage(java.util.List.of(), false));
                }

                @Override
                public Either<StoreFailure, Option<CanonicalRecord>> find(InvocationKey key, java.time.Duration timeout) {
                    throw new IllegalStateException("store bug");
                }
            };
        }

        /** Records each event's name and thread, and the outcome {@code onFinished} was given. */
        static final class BracketListener implements BoundaryListener {
            final java.util.List<String> events = new java.util.ArrayList<>();
            final java.util.Set<Thread> threads = new java.util.HashSet<>();
            final java.util.List<Either<BoundaryError, AgentResult>> finished = new java.util.ArrayList<>();

            private void seen(String event) {
                events.add(event);
                threads.add(Thread.currentThread());
            }

            @Override
            public void onStarted(RunContext run, ToolCallEnvelope envelope) {
                seen("started");
            }

            @Override
            public void onFinished(RunContext run, ToolCallEnvelope envelope, Either<BoundaryError, AgentResult> outcome) {
                seen("finished");
                finished.add(outcome);
            }

            @Override
            public void onRejected(ToolCallEnvelope envelope, BoundaryError error) {
                seen("rejected");
            }

            @Override
            public void onToolFailed(InvocationKey key, ToolName tool, Class<? extends Throwable> failure) {
                seen("toolFailed");
            }

            @Override
            public void onProjectorFailed(InvocationKey key, ToolName tool, Class<? extends Throwable> failure) {
                seen("projectorFailed");
            }

            @Override
            public void onStoreFailed(InvocationKey key, BoundaryError error) {
                seen("storeFailed");
            }

            @Override
            public void onUnexpectedFailure(Class<? extends Throwable> failure) {
                seen("unexpected");
            }

            @Override
            public void onCompleted(CanonicalRecord.Final record) {
                seen("completed");
            }

            @Override
            public void onExecuted(InvocationKey key, ToolName tool, java.time.Duration elapsed) {
                seen("executed");
            }

            @Override
            public void onProjected(InvocationKey key, ToolName tool, java.time.Duration elapsed) {
                seen("projected");
            }

            @Override
            public void onStoreTime(InvocationKey key, java.time.Duration elapsed) {
                seen("store time");
            }
        }

        @ParameterizedTest
        @EnumSource(Scenario.class)
        void reportsTheStoreTimeOnceBeforeTheFinishWhenTheCallReachedTheStore(Scenario scenario) {
            BracketListener bracket = new BracketListener();

            run(scenario, bracket);

            int reported = scenario == Scenario.PREFLIGHT_REJECTED ? 0 : 1;
            assertThat(bracket.events).filteredOn("store time"::equals).hasSize(reported);
            if (reported == 1) {
                // After every store call (a completion or a refusal), before the finish.
                assertThat(bracket.events.indexOf("store time")).isLessThan(bracket.events.size() - 1)
                        .isGreaterThan(Math.max(bracket.events.lastIndexOf("completed"), bracket.events.lastIndexOf("rejected")));
            }
        }

        @ParameterizedTest
        @EnumSource(Scenario.class)
        void endsEveryCallWithExactlyOneTerminalEvent(Scenario scenario) {
            BracketListener bracket = new BracketListener();

            run(scenario, bracket);

            assertThat(bracket.events).filteredOn(java.util.Set.of("rejected", "completed", "storeFailed", "replayed",
                    "unexpected")::contains).hasSize(1);
        }

        @ParameterizedTest
        @EnumSource(Scenario.class)
        void bracketsEveryCallWithOneStartAndOneFinishOnTheCallingThread(Scenario scenario) {
            BracketListener bracket = new BracketListener();

            Observed observed = run(scenario, bracket);

            assertThat(bracket.events).hasSizeGreaterThanOrEqualTo(3);
            assertThat(bracket.events.get(0)).isEqualTo("started");
            assertThat(bracket.events.get(bracket.events.size() - 1)).isEqualTo("finished");
            assertThat(bracket.events).filteredOn("started"::equals).hasSize(1);
            assertThat(bracket.finished).containsExactly(observed.outcome());
            assertThat(bracket.threads).containsExactly(Thread.currentThread());
        }

        @ParameterizedTest
        @EnumSource(Scenario.class)
        void aThrowingListenerChangesNoOutcome(Scenario scenario) {
            ThrowingListener throwing = new ThrowingListener();

            Observed quiet = run(scenario, BoundaryListener.noop());
            Observed loud = run(scenario, throwing);

            assertThat(throwing.calls).as("the listener was called").hasPositiveValue();
            assertThat(loud).isEqualTo(quiet);
        }

        @Test
        void outcomesOfTheScenariosAreTheExpectedOnes() {
            BoundaryListener noop = BoundaryListener.noop();

            assertThat(run(Scenario.SUCCESS, noop).outcome().get()).isEqualTo(
                    new AgentResult("2 rows", EvidenceStatus.EVIDENCE_FOUND, Option.none()));
            assertThat(run(Scenario.NO_EVIDENCE, noop).outcome().get()).isEqualTo(
                    new AgentResult("nothing", EvidenceStatus.NO_EVIDENCE, Option.of("logs 10:00-10:15")));
            assertThat(run(Scenario.PREFLIGHT_REJECTED, noop).outcome().getLeft().code()).isEqualTo(ErrorCode.RUN_MISMATCH);
            assertThat(run(Scenario.BEGIN_REFUSED, noop).outcome().getLeft().code()).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
            assertThat(run(Scenario.TOOL_THROWS, noop).outcome().getLeft().code()).isEqualTo(ErrorCode.EXECUTION_FAILED);
            assertThat(run(Scenario.PROJECTOR_THROWS, noop).outcome().getLeft().code()).isEqualTo(ErrorCode.PROJECTION_FAILED);
            assertThat(run(Scenario.COMPLETE_REFUSED, noop).outcome().getLeft().code()).isEqualTo(ErrorCode.RECORD_EXPIRED);
            assertThat(run(Scenario.STORE_THROWS, noop).outcome().getLeft().code()).isEqualTo(ErrorCode.INTERNAL_ERROR);
            assertThat(run(Scenario.BEGIN_UNKNOWN_ENDED, noop).outcome().getLeft().code())
                    .isEqualTo(ErrorCode.STORE_OUTCOME_UNKNOWN);
            assertThat(run(Scenario.COMPLETE_FULL_ENDED, noop).outcome().getLeft().code()).isEqualTo(ErrorCode.STORE_FULL);
        }
    }

    @Nested
    class ArgumentsAsJson {

        @Test
        void anExecutorReadsTheParsedArgumentsAndTheCallIsReady() {
            ScriptedStore scripted = ScriptedStore.confirming();
            ToolExecutor reading = request -> "rows for " + request.json().get("query").asText();
            ToolBoundary boundary = ToolBoundary.builder().store(scripted).accessPolicy(AccessPolicy.allowAll())
                    .clock(clock).tokens(() -> TOKEN)
                    .tool(ToolBinding.readOnly("search", reading, (request, raw) -> Projection.evidenceFound(raw)))
                    .build();

            Either<BoundaryError, AgentResult> outcome = boundary.invoke(run(),
                    ToolCallEnvelope.of(RUN, CALL, "search", "{\"query\":\"caf\u00e9 \ud83d\ude00\",\"limit\":10}"));

            assertThat(outcome).isEqualTo(Either.right(
                    new AgentResult("rows for caf\u00e9 \ud83d\ude00", EvidenceStatus.EVIDENCE_FOUND, Option.none())));
            assertThat(scripted.completions).singleElement().satisfies(completion -> {
                assertThat(completion.outcome().status()).isEqualTo(InvocationStatus.READY);
                assertThat(completion.outcome().rawResponse()).contains("rows for caf\u00e9 \ud83d\ude00");
            });
        }
    }

    @Nested
    class CallExecutor {

        final AtomicInteger given = new AtomicInteger();
        final ToolExecutor callExecutor = request -> {
            given.incrementAndGet();
            return "raw of the call's executor";
        };

        @Test
        void runsInsteadOfTheRegisteredExecutorWithTheRegisteredProjector() throws Exception {
            when(projector.project(org.mockito.ArgumentMatchers.any(), org.mockito.ArgumentMatchers.any()))
                    .thenReturn(Projection.evidenceFound("2 rows"));
            ScriptedStore scripted = ScriptedStore.confirming();

            Either<BoundaryError, AgentResult> outcome = boundary(scripted, AccessPolicy.allowAll()).build()
                    .invoke(run(), envelope(), callExecutor);

            assertThat(outcome).isEqualTo(Either.right(
                    new AgentResult("2 rows", EvidenceStatus.EVIDENCE_FOUND, Option.none())));
            assertThat(given).hasValue(1);
            verifyNoInteractions(executor);
            verify(projector).project(org.mockito.ArgumentMatchers.eq(new ToolRequest(
                    InvocationKey.of(new RunId(RUN), new ToolCallId(CALL)), new ToolName("search"), ARGUMENTS)),
                    org.mockito.ArgumentMatchers.eq("raw of the call's executor"));
            assertThat(scripted.completions).singleElement().satisfies(completion ->
                    assertThat(completion.outcome().rawResponse()).contains("raw of the call's executor"));
        }

        @Test
        void isForThatCallOnly() throws Exception {
            when(executor.execute(org.mockito.ArgumentMatchers.any())).thenReturn("raw of the registered executor");
            when(projector.project(org.mockito.ArgumentMatchers.any(), org.mockito.ArgumentMatchers.any()))
                    .thenReturn(Projection.evidenceFound("2 rows"));
            ToolBoundary boundary = boundary(ScriptedStore.confirming(), AccessPolicy.allowAll()).build();

            boundary.invoke(run(), envelope(), callExecutor);
            boundary.invoke(run(), ToolCallEnvelope.of(RUN, "call-2", "search", ARGUMENTS));

            assertThat(given).hasValue(1);
            verify(executor).execute(org.mockito.ArgumentMatchers.any());
            verify(projector).project(org.mockito.ArgumentMatchers.any(),
                    org.mockito.ArgumentMatchers.eq("raw of the registered executor"));
        }

        @Test
        void aToolFailureOfTheCallsExecutorEndsTheCallAsTheRegisteredOnesWould() {
            ToolExecutor failing = request -> {
                throw new IOException("secret connection string");
            };

            Either<BoundaryError, AgentResult> outcome = boundary(ScriptedStore.confirming(), AccessPolicy.allowAll())
                    .build().invoke(run(), envelope(), failing);

            assertThat(outcome).isEqualTo(Either.left(BoundaryError.of(ErrorCode.EXECUTION_FAILED)));
            verifyNoInteractions(executor, projector);
        }

        @Test
        void runsNeitherForAnUnauthorizedTool() {
            Either<BoundaryError, AgentResult> outcome = boundary(store, AccessPolicy.allowOnly("delete")).build()
                    .invoke(run(), envelope(), callExecutor);

            assertThat(outcome).isEqualTo(Either.left(BoundaryError.of(ErrorCode.TOOL_NOT_AUTHORIZED)));
            assertThat(given).hasValue(0);
            assertThat(store.touched()).as("store touched").isFalse();
            verifyNoInteractions(executor, projector);
        }

        @Test
        void runsNeitherForAWritableTool() {
            Either<BoundaryError, AgentResult> outcome = boundary(store, AccessPolicy.allowAll()).build()
                    .invoke(run(), ToolCallEnvelope.of(RUN, CALL, "delete", ARGUMENTS), callExecutor);

            assertThat(outcome).isEqualTo(Either.left(BoundaryError.of(ErrorCode.TOOL_NOT_READ_ONLY)));
            assertThat(given).hasValue(0);
            assertThat(store.touched()).as("store touched").isFalse();
            verifyNoInteractions(executor, projector, writableExecutor, writableProjector);
        }

        @ParameterizedTest
        @EnumSource(value = ErrorCode.class, names = {"DUPLICATE_TOOL_CALL", "TOOL_CALL_ID_REUSED",
            "TOOL_BUDGET_EXHAUSTED", "RUN_BUDGET_EXHAUSTED"})
        void runsNeitherForACallTheStoreRefuses(ErrorCode refusal) {
            ScriptedStore scripted = ScriptedStore.refusingBegin(BoundaryError.of(refusal));

            Either<BoundaryError, AgentResult> outcome = boundary(scripted, AccessPolicy.allowAll()).build()
                    .invoke(run(), envelope(), callExecutor);

            assertThat(outcome.getLeft().code()).isEqualTo(refusal);
            assertThat(given).hasValue(0);
            assertThat(scripted.completions).isEmpty();
            verifyNoInteractions(executor, projector);
        }

        @Test
        void beginsWithTheRegisteredToolsBudget() {
            ScriptedStore scripted = ScriptedStore.refusingBegin(BoundaryError.of(ErrorCode.TOOL_BUDGET_EXHAUSTED));
            ToolBoundary boundary = ToolBoundary.builder().store(scripted).accessPolicy(AccessPolicy.allowAll())
                    .clock(clock).tokens(() -> TOKEN)
                    .tool(ToolBinding.readOnly("search", executor, projector).withCallBudgetPerRun(3))
                    .build();

            Either<BoundaryError, AgentResult> outcome = boundary.invoke(run(), envelope(), callExecutor);

            assertThat(outcome).isEqualTo(Either.left(BoundaryError.overLimit(ErrorCode.TOOL_BUDGET_EXHAUSTED, 3)));
            assertThat(scripted.begins).singleElement().satisfies(start -> {
                assertThat(start.toolCallBudget()).isEqualTo(3);
                assertThat(start.runCallBudget()).isEqualTo(10);
            });
            assertThat(given).hasValue(0);
            verifyNoInteractions(executor, projector);
        }

        @Test
        void keepsTheRegisteredLimits() {
            ToolExecutor tooLarge = request -> "r".repeat(33);
            ToolBoundary boundary = boundary(ScriptedStore.confirming(), AccessPolicy.allowAll())
                    .config(ToolBoundaryConfig.custom().argumentsLimitBytes(REQUEST_LIMIT).rawResponseLimitBytes(32)
                            .build())
                    .build();

            Either<BoundaryError, AgentResult> outcome = boundary.invoke(run(), envelope(), tooLarge);

            assertThat(outcome.getLeft().code()).isEqualTo(ErrorCode.RESULT_TOO_LARGE);
            verifyNoInteractions(executor, projector);
        }

        @Test
        void refusesANullExecutor() {
            ToolBoundary boundary = boundary(store, AccessPolicy.allowAll()).build();

            assertThatNullPointerException().isThrownBy(() -> boundary.invoke(run(), envelope(), null))
                    .withMessage("executor is null");
            assertThat(store.touched()).as("store touched").isFalse();
            verifyNoInteractions(executor, projector);
        }
    }

    @Nested
    class RecordLimit {

        /** What the record of {@link #envelope()} holds before its completion, as the store is asked to begin it. */
        private long begunBytes() {
            ScriptedStore probe = ScriptedStore.refusingBegin(BoundaryError.of(ErrorCode.STORE_UNAVAILABLE));
            boundary(probe, AccessPolicy.allowAll()).build().invoke(run(), envelope());
            return probe.begins.get(0).record().byteSize();
        }

        private Either<BoundaryError, AgentResult> invokeWithRecordLimit(ScriptedStore scripted, long recordLimit,
                String raw) {
            ToolBoundaryConfig config = ToolBoundaryConfig.custom().argumentsLimitBytes(REQUEST_LIMIT)
                    .rawResponseLimitBytes(64).recordLimitBytes(recordLimit).build();
            return ToolBoundary.builder().store(scripted).accessPolicy(AccessPolicy.allowAll()).clock(clock)
                    .tokens(() -> TOKEN).config(config)
                    .tool(ToolBinding.readOnly("search", request -> raw,
                            (request, text) -> Projection.evidenceFound("hit \u00e9")))
                    .build().invoke(run(), envelope());
        }

        @ParameterizedTest(name = "raw ending in a {0}-byte character")
        @ValueSource(ints = {1, 2, 3, 4})
        void keepsARecordOfExactlyTheRecordLimit(int lastWidth) {
            String raw = "r".repeat(10) + charOfWidth(lastWidth);
            long exact = begunBytes() + Projector.utf8Length(raw) + Projector.utf8Length("hit \u00e9");
            ScriptedStore scripted = ScriptedStore.confirming();

            Either<BoundaryError, AgentResult> outcome = invokeWithRecordLimit(scripted, exact, raw);

            assertThat(outcome.isRight()).as("%s", outcome).isTrue();
            assertThat(scripted.completions).singleElement()
                    .satisfies(completion -> assertThat(completion.outcome().byteSize()).isEqualTo(exact));
        }

        @ParameterizedTest(name = "raw ending in a {0}-byte character")
        @ValueSource(ints = {1, 2, 3, 4})
        void refusesARecordOfOneByteOverTheRecordLimitKeepingTheRawResponse(int lastWidth) {
            String raw = "r".repeat(10) + charOfWidth(lastWidth);
            long limit = begunBytes() + Projector.utf8Length(raw) + Projector.utf8Length("hit \u00e9") - 1;
            ScriptedStore scripted = ScriptedStore.confirming();

            Either<BoundaryError, AgentResult> outcome = invokeWithRecordLimit(scripted, limit, raw);

            assertThat(outcome.getLeft().code()).isEqualTo(ErrorCode.RESULT_TOO_LARGE);
            assertThat(scripted.completions).singleElement().satisfies(completion -> {
                assertThat(completion.outcome().errorCode()).contains(ErrorCode.RESULT_TOO_LARGE);
                assertThat(completion.outcome().rawResponse()).contains(raw);
                assertThat(completion.outcome().byteSize()).isLessThanOrEqualTo(limit);
            });
        }

        @ParameterizedTest
        @ValueSource(strings = {"\uD83D", "\uDE00", "ok\uD83D", "\uDE00\uD83D", "\ud83d\ude00\ude00"})
        void refusesARawResponseWithALoneSurrogateKeepingNoRawResponse(String raw) {
            ScriptedStore scripted = ScriptedStore.confirming();

            Either<BoundaryError, AgentResult> outcome = invokeWithRecordLimit(scripted, 4096, raw);

            assertThat(outcome).isEqualTo(Either.left(BoundaryError.of(ErrorCode.TEXT_NOT_UNICODE)));
            assertThat(scripted.completions).singleElement().satisfies(completion -> {
                assertThat(completion.outcome().errorCode()).contains(ErrorCode.TEXT_NOT_UNICODE);
                assertThat(completion.outcome().rawResponse()).isEmpty();
            });
        }
    }

    @Nested
    class Building {

        @Test
        void refusesToBuildWithoutAStore() {
            ToolBoundaryBuilder builder = ToolBoundary.builder().accessPolicy(AccessPolicy.allowAll());

            // The message names the missing setting and how to set it.
            assertThatIllegalStateException().isThrownBy(builder::build)
                    .withMessageContaining("no store is set")
                    .withMessageContaining("store(")
                    .withMessageContaining("before build()");
        }

        @Test
        void refusesAToolNameRegisteredTwiceNamingIt() {
            ToolBoundaryBuilder builder = ToolBoundary.builder()
                    .tool(ToolBinding.readOnly("log-search", request -> "", (request, raw) -> Projection.evidenceFound("x")));

            assertThatIllegalArgumentException().isThrownBy(() -> builder.tool(
                            ToolBinding.readOnly("log-search", request -> "", (request, raw) -> Projection.evidenceFound("y"))))
                    .withMessage("tool \"log-search\" is registered twice: register each tool name once");
        }

        @Test
        void refusesToBuildWithNeitherAStoreNorAnAccessPolicy() {
            assertThatIllegalStateException().isThrownBy(ToolBoundary.builder()::build).withMessageContaining("store");
        }

        @Test
        void refusesToBuildWithoutAnAccessPolicy() {
            ToolBoundaryBuilder builder = ToolBoundary.builder().store(store);

            assertThatIllegalStateException().isThrownBy(builder::build)
                    .withMessageContaining("no access policy is set")
                    .withMessageContaining("accessPolicy(AccessPolicy.allowOnly(")
                    .withMessageContaining("accessPolicy(AccessPolicy.allowAll())")
                    .withMessageContaining("before build()");
            assertThat(store.touched()).as("store touched").isFalse();
        }

        @Test
        void refusesToRegisterAToolTwice() {
            ToolBoundaryBuilder builder = ToolBoundary.builder().tool(ToolBinding.readOnly("search", executor, projector));

            assertThatIllegalArgumentException()
                    .isThrownBy(() -> builder.tool(ToolBinding.readOnly("search", executor, projector)))
                    .withMessageContaining("search");
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> builder.tool(ToolBinding.writable("search", writableExecutor, writableProjector)));
            verifyNoInteractions(executor, projector, writableExecutor, writableProjector);
        }

        @Test
        void keepsTheFirstRegistrationWhenASecondIsRefused() {
            ScriptedStore scripted = ScriptedStore.confirming();
            ToolBoundaryBuilder builder = ToolBoundary.builder().store(scripted).accessPolicy(AccessPolicy.allowAll())
                    .clock(clock)
                    .tool(ToolBinding.readOnly("search", request -> "raw", (request, raw) -> Projection.evidenceFound("first")));
            assertThatIllegalArgumentException().isThrownBy(() -> builder.tool(
                    ToolBinding.writable("search", writableExecutor, writableProjector)));

            assertThat(builder.build().invoke(run(), envelope()).get().content()).isEqualTo("first");
            verifyNoInteractions(writableExecutor, writableProjector);
        }
    }
}
