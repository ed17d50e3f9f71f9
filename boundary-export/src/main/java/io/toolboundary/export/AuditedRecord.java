package io.toolboundary.export;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.Projector;
import io.toolboundary.domain.CanonicalRecord;
import io.vavr.control.Option;

/**
 * A final record as the audit database holds it: the record with its raw response as {@code rawPolicy}
 * left it. With {@link RawResponsePolicy#KEEP} the record is the stored one, field for field; with
 * {@link RawResponsePolicy#MASK} its raw response is masked; with {@link RawResponsePolicy#OMIT} a READY
 * record's raw response is the empty text and an ERROR record has none.
 *
 * @param record the final record, its raw response as the policy left it
 * @param rawPolicy what was done to the raw response
 */
public record AuditedRecord(CanonicalRecord.Final record, RawResponsePolicy rawPolicy) {

    /**
     * An audited record.
     *
     * @param record the final record, its raw response as the policy left it
     * @param rawPolicy what was done to the raw response
     */
    public AuditedRecord {
        requireNonNull(record, "record is null");
        requireNonNull(rawPolicy, "rawPolicy is null");
    }

    /**
     * {@return {@code stored} with its raw response as {@code policy} says}
     *
     * @param stored the record as the store holds it
     * @param policy the raw response policy of its tool
     */
    public static AuditedRecord of(CanonicalRecord.Final stored, RawResponsePolicy policy) {
        requireNonNull(stored, "stored is null");
        requireNonNull(policy, "policy is null");
        if (policy == RawResponsePolicy.KEEP || stored.rawResponse().isEmpty()) {
            return new AuditedRecord(stored, policy);
        }
        Option<String> raw = policy == RawResponsePolicy.MASK
                ? stored.rawResponse().map(Projector::mask)
                : Option.none();
        return new AuditedRecord(withRaw(stored, raw), policy);
    }

    private static CanonicalRecord.Final withRaw(CanonicalRecord.Final stored, Option<String> raw) {
        CanonicalRecord.Projecting begun = stored.begun();
        if (stored instanceof CanonicalRecord.Ready ready) {
            return begun.ready(raw.getOrElse(""), ready.result(), ready.updatedAt());
        }
        CanonicalRecord.Failed failed = (CanonicalRecord.Failed) stored;
        CanonicalRecord.Failed copy = begun.failed(failed.code(), raw, failed.updatedAt());
        return failed.failureType().isDefined()
                ? copy.because(failed.failureType().get(), failed.failureMessage().getOrElse(""))
                : copy;
    }
}
