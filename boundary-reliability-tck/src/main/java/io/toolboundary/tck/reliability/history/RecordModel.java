package io.toolboundary.tck.reliability.history;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The canonical record of one key as a sequential object, written from the store's rules
 * ({@code StoreRules}), not from a store: absent, PROJECTING by an attempt, final (READY or ERROR) by an
 * attempt, or expired. Checked per key. A key is begun with one request only (a begin is never
 * {@code ID_REUSED}) and within the run's budgets.
 *
 * <p>Every operation may also answer {@link Reply#NOT_WRITTEN} (the store unreachable or full) and change
 * nothing; {@link Reply#INVALID} is never allowed. What a {@link Kind#FAILOVER} (the promotion of a replica)
 * may do depends on the {@link Promise}.
 */
public final class RecordModel implements Model<RecordModel.State, RecordModel.Call, RecordModel.Answer> {

    /** The error outcome of a record abandoned past its lease. */
    public static final String ABANDONED = "ERROR:EXECUTION_ABANDONED";

    /** The key of the {@link Kind#FAILOVER} marker, which belongs to every key. */
    public static final String EVERY_KEY = "*";

    /** What a store promises about the histories of a key. */
    public enum Promise {
        /** Linearizable; a failover changes nothing. */
        LINEARIZABLE,
        /**
         * Linearizable except at a failover: the key may fall back to a state it held since its last write that
         * got an answer (a write whose outcome was unknown may be lost, though reads may have seen it), and
         * every begin after it may be refused {@code RUN_STATE_LOST}. Writes that were answered are kept.
         */
        ANSWERED_WRITES_SURVIVE_FAILOVER,
        /**
         * Linearizable except at a failover: the key may fall back to any state it held before, answered
         * writes included, and every begin after it may be refused {@code RUN_STATE_LOST}.
         */
        FAILOVER_MAY_LOSE_WRITES
    }

    /** What an operation does. */
    public enum Kind {
        /** Creates the record PROJECTING by an attempt. */
        BEGIN,
        /** Completes it, by its attempt, as READY or ERROR. */
        COMPLETE,
        /** Ends it in ERROR by its attempt alone. */
        END,
        /** Ends a record left PROJECTING past its lease. */
        ABANDON,
        /** Reads the record. */
        FIND,
        /** The record's time to live ran out. */
        EXPIRE,
        /** A replica was promoted: a marker of every key. */
        FAILOVER
    }

    /** How an operation was answered. */
    public enum Reply {
        /** A begin created the record, or found it PROJECTING by the same attempt. */
        CREATED,
        /** Refused by the store's rules, nothing written. */
        REFUSED,
        /** The record is PROJECTING (a find). */
        PROJECTING,
        /** The record is final (a find, or a completion, end or abandonment). */
        FINAL,
        /** No record (a find). */
        NONE,
        /** The store was unreachable or full: nothing written. */
        NOT_WRITTEN,
        /** The store answered data that is not valid; never allowed. */
        INVALID
    }

    /** The phase of a key. */
    public enum Phase {
        /** Never created. */
        ABSENT,
        /** Created, running. */
        PROJECTING,
        /** READY or ERROR. */
        FINAL,
        /** Its time to live ran out; the run's ledger still knows it. */
        EXPIRED
    }

    /**
     * An operation asked of the store.
     *
     * @param kind what it does
     * @param key the record's key ({@link #EVERY_KEY} for a failover)
     * @param attempt the attempt (begin, complete, end), else empty
     * @param outcome the final outcome asked for ({@code READY} or {@code ERROR:<code>}; complete, end), else empty
     */
    public record Call(Kind kind, String key, String attempt, String outcome) {
        /**
         * An operation.
         *
         * @param kind what it does
         * @param key the key
         * @param attempt the attempt, or empty
         * @param outcome the outcome asked for, or empty
         */
        public Call {
            requireNonNull(kind, "kind is null");
            requireNonNull(key, "key is null");
            requireNonNull(attempt, "attempt is null");
            requireNonNull(outcome, "outcome is null");
        }

        /** {@return a begin} @param key the key @param attempt the attempt */
        public static Call begin(String key, String attempt) {
            return new Call(Kind.BEGIN, key, attempt, "");
        }

        /** {@return a completion} @param key the key @param attempt the attempt @param outcome READY or ERROR:code */
        public static Call complete(String key, String attempt, String outcome) {
            return new Call(Kind.COMPLETE, key, attempt, outcome);
        }

        /** {@return an end} @param key the key @param attempt the attempt @param outcome ERROR:code */
        public static Call end(String key, String attempt, String outcome) {
            return new Call(Kind.END, key, attempt, outcome);
        }

        /** {@return an abandonment} @param key the key */
        public static Call abandon(String key) {
            return new Call(Kind.ABANDON, key, "", "");
        }

        /** {@return a read} @param key the key */
        public static Call find(String key) {
            return new Call(Kind.FIND, key, "", "");
        }

        /** {@return the expiry of a key} @param key the key */
        public static Call expire(String key) {
            return new Call(Kind.EXPIRE, key, "", "");
        }

        /** {@return the failover marker} */
        public static Call failover() {
            return new Call(Kind.FAILOVER, EVERY_KEY, "", "");
        }

        /** {@return one line of text without tabs, read back by {@link #parse}} */
        public String text() {
            return kind + " " + dash(key) + " " + dash(attempt) + " " + dash(outcome);
        }

        /** {@return the call {@code text} describes} @param text the output of {@link #text()} */
        public static Call parse(String text) {
            String[] f = text.split(" ", -1);
            return new Call(Kind.valueOf(f[0]), undash(f[1]), undash(f[2]), undash(f[3]));
        }

        @Override
        public String toString() {
            return text();
        }
    }

    /**
     * What the store answered.
     *
     * @param reply how it answered
     * @param attempt the attempt of the record answered, else empty
     * @param value the refusal's name, or the final record's outcome, else empty
     */
    public record Answer(Reply reply, String attempt, String value) {
        /**
         * An answer.
         *
         * @param reply how it answered
         * @param attempt the record's attempt, or empty
         * @param value the refusal or outcome, or empty
         */
        public Answer {
            requireNonNull(reply, "reply is null");
            requireNonNull(attempt, "attempt is null");
            requireNonNull(value, "value is null");
        }

        /** {@return a begin's record} @param attempt its attempt */
        public static Answer created(String attempt) {
            return new Answer(Reply.CREATED, attempt, "");
        }

        /** {@return a refusal} @param refusal the refusal's name, as {@code Refusal.name()} */
        public static Answer refused(String refusal) {
            return new Answer(Reply.REFUSED, "", refusal);
        }

        /** {@return a PROJECTING record read} @param attempt its attempt */
        public static Answer projecting(String attempt) {
            return new Answer(Reply.PROJECTING, attempt, "");
        }

        /** {@return a final record} @param attempt its attempt @param outcome READY or ERROR:code */
        public static Answer ended(String attempt, String outcome) {
            return new Answer(Reply.FINAL, attempt, outcome);
        }

        /** {@return no record} */
        public static Answer none() {
            return new Answer(Reply.NONE, "", "");
        }

        /** {@return nothing written: the store unreachable or full} */
        public static Answer notWritten() {
            return new Answer(Reply.NOT_WRITTEN, "", "");
        }

        /** {@return invalid data} */
        public static Answer invalid() {
            return new Answer(Reply.INVALID, "", "");
        }

        /** {@return one line of text without tabs, read back by {@link #parse}} */
        public String text() {
            return reply + " " + dash(attempt) + " " + dash(value);
        }

        /** {@return the answer {@code text} describes} @param text the output of {@link #text()} */
        public static Answer parse(String text) {
            String[] f = text.split(" ", -1);
            return new Answer(Reply.valueOf(f[0]), undash(f[1]), undash(f[2]));
        }

        @Override
        public String toString() {
            return text();
        }
    }

    /**
     * What a key holds.
     *
     * @param phase its phase
     * @param attempt the attempt that began it, else empty
     * @param outcome its final outcome, else empty
     */
    public record Held(Phase phase, String attempt, String outcome) {
        /**
         * A key's content.
         *
         * @param phase its phase
         * @param attempt the attempt, or empty
         * @param outcome the outcome, or empty
         */
        public Held {
            requireNonNull(phase, "phase is null");
            requireNonNull(attempt, "attempt is null");
            requireNonNull(outcome, "outcome is null");
        }

        static final Held ABSENT = new Held(Phase.ABSENT, "", "");
    }

    /**
     * The model's state of a key.
     *
     * @param trail what the key may fall back to at a failover, oldest first; its last element is what it holds
     * @param failedOver whether a failover happened: then a begin may be refused {@code RUN_STATE_LOST}
     */
    public record State(List<Held> trail, boolean failedOver) {
        /**
         * A state.
         *
         * @param trail the states a failover may leave, the current one last
         * @param failedOver whether a failover happened
         */
        public State {
            trail = List.copyOf(trail);
            if (trail.isEmpty()) {
                throw new IllegalArgumentException("a trail holds at least the current state");
            }
        }

        /** {@return what the key holds} */
        public Held held() {
            return trail.get(trail.size() - 1);
        }
    }

    private final Promise promise;

    private RecordModel(Promise promise) {
        this.promise = requireNonNull(promise, "promise is null");
    }

    /** {@return the model of a store whose every history is linearizable} */
    public static RecordModel linearizable() {
        return new RecordModel(Promise.LINEARIZABLE);
    }

    /**
     * {@return the model of a store with {@code promise}}
     *
     * @param promise what the store promises
     */
    public static RecordModel of(Promise promise) {
        return new RecordModel(promise);
    }

    /** {@return what this model promises} */
    public Promise promise() {
        return promise;
    }

    @Override
    public State initial() {
        return new State(List.of(Held.ABSENT), false);
    }

    @Override
    public List<State> step(State state, Call call, Answer answer) {
        if (call.kind() == Kind.FAILOVER) {
            return failover(state);
        }
        List<State> next = new ArrayList<>();
        for (Possible possible : possible(state, call)) {
            if (answer == null || possible.answer().equals(answer)) {
                State after = after(state, possible, answer != null);
                if (!next.contains(after)) {
                    next.add(after);
                }
            }
        }
        return next;
    }

    /** Splits by key; the failover marker goes into every key's part. */
    @Override
    public List<List<Operation<Call, Answer>>> partition(List<Operation<Call, Answer>> history) {
        Map<String, List<Operation<Call, Answer>>> parts = new LinkedHashMap<>();
        List<Operation<Call, Answer>> everyKey = new ArrayList<>();
        for (Operation<Call, Answer> op : history) {
            if (op.input().key().equals(EVERY_KEY)) {
                everyKey.add(op);
            } else {
                parts.computeIfAbsent(op.input().key(), k -> new ArrayList<>()).add(op);
            }
        }
        List<List<Operation<Call, Answer>>> result = new ArrayList<>();
        for (List<Operation<Call, Answer>> part : parts.values()) {
            part.addAll(everyKey);
            result.add(part);
        }
        return result;
    }

    private List<State> failover(State state) {
        if (promise == Promise.LINEARIZABLE) {
            return List.of(state);
        }
        List<State> next = new ArrayList<>();
        for (int i = state.trail().size(); i >= 1; i--) {
            next.add(new State(state.trail().subList(0, i), true));
        }
        return next;
    }

    /** One answer the rules allow, the content after it, and whether it wrote or confirmed the record. */
    private record Possible(Answer answer, Held next, boolean recordAnswer) {
    }

    private static List<Possible> possible(State state, Call call) {
        Held held = state.held();
        List<Possible> all = new ArrayList<>();
        all.add(new Possible(Answer.notWritten(), held, false));
        boolean gone = held.phase() == Phase.ABSENT || held.phase() == Phase.EXPIRED;
        boolean own = held.attempt().equals(call.attempt());
        switch (call.kind()) {
            case BEGIN -> {
                if (state.failedOver()) {
                    all.add(refusal("RUN_STATE_LOST", held));
                }
                if (held.phase() == Phase.ABSENT) {
                    all.add(new Possible(Answer.created(call.attempt()),
                            new Held(Phase.PROJECTING, call.attempt(), ""), true));
                } else if (held.phase() == Phase.PROJECTING && own) {
                    all.add(new Possible(Answer.created(call.attempt()), held, true));
                } else {
                    all.add(refusal("DUPLICATE", held));
                }
            }
            case COMPLETE, END -> {
                if (gone) {
                    all.add(refusal("EXPIRED", held));
                } else if (!own) {
                    all.add(refusal("CONFLICT", held));
                } else if (held.phase() == Phase.PROJECTING) {
                    Held done = new Held(Phase.FINAL, held.attempt(), call.outcome());
                    all.add(new Possible(Answer.ended(done.attempt(), done.outcome()), done, true));
                } else if (call.kind() == Kind.END || held.outcome().equals(call.outcome())) {
                    all.add(new Possible(Answer.ended(held.attempt(), held.outcome()), held, true));
                } else {
                    all.add(refusal("CONFLICT", held));
                }
            }
            case ABANDON -> {
                if (gone) {
                    all.add(refusal("EXPIRED", held));
                } else if (held.phase() == Phase.PROJECTING) {
                    all.add(refusal("LEASE_NOT_EXPIRED", held));
                    Held done = new Held(Phase.FINAL, held.attempt(), ABANDONED);
                    all.add(new Possible(Answer.ended(done.attempt(), done.outcome()), done, true));
                } else if (held.outcome().equals(ABANDONED)) {
                    all.add(new Possible(Answer.ended(held.attempt(), held.outcome()), held, true));
                } else {
                    all.add(refusal("CONFLICT", held));
                }
            }
            case FIND -> all.add(new Possible(switch (held.phase()) {
                case ABSENT, EXPIRED -> Answer.none();
                case PROJECTING -> Answer.projecting(held.attempt());
                case FINAL -> Answer.ended(held.attempt(), held.outcome());
            }, held, false));
            case EXPIRE -> all.add(new Possible(Answer.none(),
                    held.phase() == Phase.ABSENT ? held : new Held(Phase.EXPIRED, "", ""), true));
            case FAILOVER -> throw new IllegalStateException("a failover is not a key's operation");
        }
        return all;
    }

    private static Possible refusal(String refusal, Held held) {
        return new Possible(Answer.refused(refusal), held, false);
    }

    private State after(State state, Possible possible, boolean answered) {
        Held next = possible.next();
        if (!possible.recordAnswer()) {
            return state;
        }
        List<Held> trail = new ArrayList<>(state.trail());
        if (promise == Promise.LINEARIZABLE || (promise == Promise.ANSWERED_WRITES_SURVIVE_FAILOVER && answered)) {
            // Answered: the write (or the confirmation of an earlier one) is kept from here on.
            trail.clear();
        }
        if (trail.isEmpty() || !trail.get(trail.size() - 1).equals(next)) {
            trail.add(next);
        }
        return new State(trail, state.failedOver());
    }

    private static String dash(String text) {
        return text.isEmpty() ? "-" : text;
    }

    private static String undash(String text) {
        return text.equals("-") ? "" : text;
    }
}
