package io.toolboundary.tck.reliability;

import static io.toolboundary.tck.reliability.HostileValues.ARGUMENTS;
import static io.toolboundary.tck.reliability.HostileValues.PAYLOAD_LIMIT_BYTES;
import static io.toolboundary.tck.reliability.HostileValues.RAW;

import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.Projection;
import io.vavr.control.Option;
import java.util.Random;

/** One payload try: which part is sized, at the limit or one byte over, and its last character's width. */
record HostilePayload(Kind kind, boolean over, int lastCharBytes, String arguments, String raw, String content,
        Option<String> scope) {

    /** Where a payload is put. */
    enum Kind { ARGUMENTS, RAW, PROJECTION, THROWING_TOOL, THROWING_PROJECTOR }

    static HostilePayload random(Random random) {
        Kind kind = Kind.values()[random.nextInt(10) < 8 ? random.nextInt(3) : 3 + random.nextInt(2)];
        boolean over = random.nextBoolean();
        int width = 1 + random.nextInt(4);
        int size = PAYLOAD_LIMIT_BYTES + (over ? 1 : 0);
        String arguments = ARGUMENTS;
        String raw = RAW;
        String content = "found " + random.nextInt(1000);
        Option<String> scope = Option.none();
        switch (kind) {
            case ARGUMENTS -> arguments = "{\"q\":\"" + HostileInputs.textOfUtf8Bytes(random, size - 8, width) + "\"}";
            case RAW -> raw = HostileInputs.textOfUtf8Bytes(random, size, width);
            case PROJECTION -> {
                if (random.nextBoolean()) {
                    int scopeBytes = 1 + random.nextInt(64);
                    scope = Option.of(HostileInputs.textOfUtf8Bytes(random, scopeBytes, 1));
                    content = HostileInputs.textOfUtf8Bytes(random, size - scopeBytes, width);
                } else {
                    content = HostileInputs.textOfUtf8Bytes(random, size, width);
                }
            }
            default -> {
            }
        }
        return new HostilePayload(kind, over, width, arguments, raw, content, scope);
    }

    ErrorCode expectedCode() {
        return switch (kind) {
            case THROWING_TOOL -> ErrorCode.EXECUTION_FAILED;
            case THROWING_PROJECTOR -> ErrorCode.PROJECTION_FAILED;
            case ARGUMENTS -> over ? ErrorCode.ARGUMENTS_TOO_LARGE : null;
            case RAW, PROJECTION -> over ? ErrorCode.RESULT_TOO_LARGE : null;
        };
    }

    Projection projection() {
        return scope.isDefined() && scope.get().length() % 2 == 0
                ? Projection.noEvidence(content, scope.get())
                : new Projection(content, io.toolboundary.domain.EvidenceStatus.EVIDENCE_FOUND, scope);
    }

    String describe() {
        return kind + (over ? " limit+1" : " at limit") + ", last character " + lastCharBytes + " bytes";
    }
}
