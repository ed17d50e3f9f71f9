package io.toolboundary.application.spi;

import static java.util.Objects.requireNonNull;

import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;

/**
 * What a {@link RecordOutbox} holds at one instant.
 *
 * @param entries entries not yet acknowledged, delivered or not
 * @param oldest when the oldest of them was appended; none when there is none
 * @param lost records whose TTL ended before an exporter reached them (and, in memory, entries dropped
 *     from a full outbox), counted since the outbox was created
 */
public record OutboxBacklog(long entries, Option<Instant> oldest, long lost) {

    /**
     * A backlog.
     *
     * @param entries entries not yet acknowledged
     * @param oldest when the oldest of them was appended; none when there is none
     * @param lost records lost before export, counted since the outbox was created
     * @throws IllegalArgumentException when a count is negative, or {@code oldest} is given for no entries
     */
    public OutboxBacklog {
        requireNonNull(oldest, "oldest is null");
        if (entries < 0 || lost < 0) {
            throw new IllegalArgumentException("counts must not be negative, were " + entries + " and " + lost);
        }
        if (entries == 0 && oldest.isDefined()) {
            throw new IllegalArgumentException("an empty outbox has no oldest entry");
        }
    }

    /**
     * {@return the age of the oldest unexported entry at {@code now}: zero when there is none}
     *
     * @param now the instant to measure at
     */
    public Duration lag(Instant now) {
        requireNonNull(now, "now is null");
        return oldest.map(at -> at.isBefore(now) ? Duration.between(at, now) : Duration.ZERO).getOrElse(Duration.ZERO);
    }
}
