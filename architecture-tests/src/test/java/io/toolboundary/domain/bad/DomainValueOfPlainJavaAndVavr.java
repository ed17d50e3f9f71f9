package io.toolboundary.domain.bad;

import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;

/** Follows every domain rule: final fields, Java and Vavr types only, time passed in. */
public record DomainValueOfPlainJavaAndVavr(String name, Option<String> note, Instant createdAt) {

    /** Computes with the time it is given and never reads a clock. */
    public Instant expiresAt(Duration ttl) {
        return createdAt.plus(ttl);
    }
}
