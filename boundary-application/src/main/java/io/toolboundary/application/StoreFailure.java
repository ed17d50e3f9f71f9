package io.toolboundary.application;

import static java.util.Objects.requireNonNull;

import io.toolboundary.domain.Refusal;
import io.vavr.control.Option;
import java.util.function.Function;

/**
 * Why a {@link CanonicalInvocationStore} operation did not succeed, said as what may have happened in the
 * store: {@link NothingWritten}, {@link OutcomeUnknown}, {@link DataInvalid}, or a {@link Refused refusal}
 * (nothing written either). Carries no key, payload or exception text. {@link StoreErrors} maps it to the
 * agent's {@code ErrorCode}.
 */
public sealed interface StoreFailure
        permits StoreFailure.NothingWritten, StoreFailure.OutcomeUnknown, StoreFailure.DataInvalid,
        StoreFailure.Refused {

    /**
     * Tells the failure apart: exactly one of the functions is applied.
     *
     * @param <R> the result type
     * @param nothingWritten for {@link NothingWritten}
     * @param outcomeUnknown for {@link OutcomeUnknown}
     * @param dataInvalid for {@link DataInvalid}
     * @param refused for {@link Refused}
     * @return what the applied function returns
     */
    <R> R fold(Function<NothingWritten, R> nothingWritten, Function<OutcomeUnknown, R> outcomeUnknown,
            Function<DataInvalid, R> dataInvalid, Function<Refused, R> refused);

    /** {@return the refusal, when the store refused} */
    default Option<Refusal> refusal() {
        return Option.none();
    }

    /** {@return the store could not be reached: nothing was written, provably} */
    static StoreFailure unavailable() {
        return new NothingWritten(NothingWritten.Cause.UNAVAILABLE);
    }

    /** {@return the store refused the write for lack of memory: nothing was written} */
    static StoreFailure full() {
        return new NothingWritten(NothingWritten.Cause.FULL);
    }

    /** {@return the operation may or may not have taken effect} */
    static StoreFailure outcomeUnknown() {
        return new OutcomeUnknown();
    }

    /** {@return the store holds something that is not a record of this library} */
    static StoreFailure dataInvalid() {
        return new DataInvalid();
    }

    /**
     * The store refused the operation and changed nothing.
     *
     * @param refusal why
     * @return the failure
     */
    static StoreFailure refused(Refusal refusal) {
        return new Refused(refusal);
    }

    /**
     * Nothing was written, provably: no connection was had, or the server refused before running anything.
     *
     * @param cause whether the store was out of reach or full
     */
    record NothingWritten(Cause cause) implements StoreFailure {

        /** Why nothing was written. */
        public enum Cause {
            /** The store could not be reached. */
            UNAVAILABLE,
            /** The store refused the write for lack of memory. */
            FULL
        }

        /**
         * A failure that wrote nothing.
         *
         * @param cause why
         */
        public NothingWritten {
            requireNonNull(cause, "cause is null");
        }

        @Override
        public <R> R fold(Function<NothingWritten, R> nothingWritten, Function<OutcomeUnknown, R> outcomeUnknown,
                Function<DataInvalid, R> dataInvalid, Function<Refused, R> refused) {
            return nothingWritten.apply(this);
        }
    }

    /** The operation was sent and no answer came, or the answer was lost: it may have taken effect. */
    record OutcomeUnknown() implements StoreFailure {
        @Override
        public <R> R fold(Function<NothingWritten, R> nothingWritten, Function<OutcomeUnknown, R> outcomeUnknown,
                Function<DataInvalid, R> dataInvalid, Function<Refused, R> refused) {
            return outcomeUnknown.apply(this);
        }
    }

    /** The store holds data that is not a valid record of this library. */
    record DataInvalid() implements StoreFailure {
        @Override
        public <R> R fold(Function<NothingWritten, R> nothingWritten, Function<OutcomeUnknown, R> outcomeUnknown,
                Function<DataInvalid, R> dataInvalid, Function<Refused, R> refused) {
            return dataInvalid.apply(this);
        }
    }

    /**
     * The store refused the operation by its rules and changed nothing.
     *
     * @param reason why
     */
    record Refused(Refusal reason) implements StoreFailure {

        /**
         * A refusal.
         *
         * @param reason why
         */
        public Refused {
            requireNonNull(reason, "reason is null");
        }

        @Override
        public Option<Refusal> refusal() {
            return Option.some(reason);
        }

        @Override
        public <R> R fold(Function<NothingWritten, R> nothingWritten, Function<OutcomeUnknown, R> outcomeUnknown,
                Function<DataInvalid, R> dataInvalid, Function<Refused, R> refused) {
            return refused.apply(this);
        }
    }
}
