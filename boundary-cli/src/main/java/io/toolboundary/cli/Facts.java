package io.toolboundary.cli;

import io.toolboundary.adapter.redis.RedisOperatorView;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/** Readings of one key's facts, in the words of the record table. */
final class Facts {

    private Facts() {
    }

    /** The server's time when it answered. */
    static Instant serverNow(RedisOperatorView.KeyFacts facts) {
        return Instant.EPOCH.plusNanos(facts.serverMicros() * 1000);
    }

    /** Time since the record's creation, by the server's clock. */
    static Optional<Duration> age(RedisOperatorView.KeyFacts facts) {
        String created = facts.fields().get("createdAt");
        if (created == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Duration.between(Instant.parse(created), serverNow(facts)));
        } catch (DateTimeParseException notAnInstant) {
            return Optional.empty();
        }
    }

    /** Time left of a PROJECTING record's lease by the server's clock (negative once passed). */
    static Optional<Duration> leaseLeft(RedisOperatorView.KeyFacts facts) {
        String lease = facts.fields().get("leaseUntil");
        if (lease == null || !"PROJECTING".equals(facts.fields().get("status"))) {
            return Optional.empty();
        }
        String[] parts = lease.split(":");
        if (parts.length != 2) {
            return Optional.empty();
        }
        try {
            Instant until = Instant.ofEpochSecond(Long.parseLong(parts[0]), Long.parseLong(parts[1]));
            return Optional.of(Duration.between(serverNow(facts), until));
        } catch (RuntimeException unreadable) {
            return Optional.empty();
        }
    }

    /** True when the record is PROJECTING and its lease has passed by the server's clock. */
    static boolean pastLease(RedisOperatorView.KeyFacts facts) {
        return leaseLeft(facts).map(left -> left.isNegative() || left.isZero()).orElse(false);
    }

    /** A duration as operators read it: 950ms, 42s, 5m03s, 2h10m, 3d04h; negative with a minus. */
    static String human(Duration duration) {
        if (duration.isNegative()) {
            return "-" + human(duration.negated());
        }
        long millis = duration.toMillis();
        if (millis < 1000) {
            return millis + "ms";
        }
        long seconds = duration.toSeconds();
        if (seconds < 60) {
            return seconds + "s";
        }
        if (seconds < 3600) {
            return String.format("%dm%02ds", seconds / 60, seconds % 60);
        }
        if (seconds < 86_400) {
            return String.format("%dh%02dm", seconds / 3600, seconds % 3600 / 60);
        }
        return String.format("%dd%02dh", seconds / 86_400, seconds % 86_400 / 3600);
    }

    /** A TTL as PTTL reports it: none (-1), gone (-2), or a duration. */
    static String ttl(long ttlMillis) {
        return ttlMillis == -1 ? "none" : ttlMillis == -2 ? "gone" : human(Duration.ofMillis(ttlMillis));
    }

    /** A byte count: 512B, 4.2KiB, 1.5MiB. */
    static String bytes(long bytes) {
        if (bytes < 0) {
            return "?";
        }
        if (bytes < 1024) {
            return bytes + "B";
        }
        if (bytes < 1024 * 1024) {
            return String.format("%.1fKiB", bytes / 1024.0);
        }
        return String.format("%.1fMiB", bytes / (1024.0 * 1024));
    }

    /** The run id in a key {@code <prefix>:{<runId>}:…}, when it is one. */
    static Optional<String> runOf(String prefix, String key) {
        String start = prefix + ":{";
        int close = key.indexOf('}', start.length());
        return key.startsWith(start) && close > start.length()
                ? Optional.of(key.substring(start.length(), close)) : Optional.empty();
    }
}
