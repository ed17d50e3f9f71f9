package io.toolboundary.adapter.redis;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.LongAdder;
import org.redisson.connection.CRC16;

/**
 * Lets calls fail at once while Redis cannot be reached, instead of each paying for a connection attempt.
 * A try that could make no connection shuts the gate; while it is shut every call is turned away
 * ({@code STORE_UNAVAILABLE}, nothing sent) but one probe at a time, and the first try that reaches the
 * server opens it again. On Redis Cluster there is one gate per hash slot, so a master that is down turns
 * away only its own calls. Thread-safe.
 */
final class OutageGate {

    /** What the gate says to one call. */
    enum Pass {
        /** The store is reachable as far as is known: go ahead. */
        OPEN,
        /** The store was unreachable; this call is the one that tries again. */
        PROBE,
        /** The store is unreachable and another call is probing: answer at once without sending. */
        SHUT
    }

    private static final int UP = 0;
    private static final int DOWN = 1;
    private static final int PROBING = 2;
    private static final int SLOTS = 16_384;

    private final AtomicIntegerArray states;
    private final LongAdder turnedAway = new LongAdder();

    private OutageGate(int gates) {
        this.states = new AtomicIntegerArray(gates);
    }

    /** One gate for a standalone server or the master behind sentinels. */
    static OutageGate single() {
        return new OutageGate(1);
    }

    /** One gate per hash slot, for a Redis Cluster. */
    static OutageGate perSlot() {
        return new OutageGate(SLOTS);
    }

    /** Whether the call routed by {@code routingKey} may go ahead, or is the probe, or must be turned away. */
    Pass enter(String routingKey) {
        int gate = gate(routingKey);
        int state = states.get(gate);
        if (state == UP) {
            return Pass.OPEN;
        }
        if (state == DOWN && states.compareAndSet(gate, DOWN, PROBING)) {
            return Pass.PROBE;
        }
        turnedAway.increment();
        return Pass.SHUT;
    }

    /** A try of the call reached the server: the gate opens. */
    void reached(String routingKey) {
        int gate = gate(routingKey);
        if (states.get(gate) != UP) {
            states.set(gate, UP);
        }
    }

    /** A try of the call could make no connection: the gate shuts, and a probe that found so is done. */
    void unreachable(String routingKey) {
        states.set(gate(routingKey), DOWN);
    }

    /** The call that passed as {@code pass} ended without learning whether the server can be reached. */
    void undecided(String routingKey, Pass pass) {
        if (pass == Pass.PROBE) {
            states.compareAndSet(gate(routingKey), PROBING, DOWN);
        }
    }

    /** How many calls the gate has turned away since the store was made. */
    long turnedAway() {
        return turnedAway.sum();
    }

    private int gate(String routingKey) {
        if (states.length() == 1) {
            return 0;
        }
        return CRC16.crc16(hashTag(routingKey).getBytes(StandardCharsets.UTF_8)) % SLOTS;
    }

    /** The part of the key Redis Cluster hashes: the text in its first non-empty {@code {...}}, or all of it. */
    static String hashTag(String key) {
        int open = key.indexOf('{');
        if (open >= 0) {
            int close = key.indexOf('}', open + 1);
            if (close > open + 1) {
                return key.substring(open + 1, close);
            }
        }
        return key;
    }
}
