package io.toolboundary.tck.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.domain.spi.StoreRules;
import io.toolboundary.tck.reliability.ModelSequence.Counts;
import io.toolboundary.tck.store.StoreFixture;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A model-based check of a {@link CanonicalInvocationStore}: seeded random sequences of begins, completions, reads and
 * the passing of time, run against the store and a reference model deciding by the domain's {@link StoreRules}.
 */
public interface StoreModelContract extends StoreFixture {

    /** Sequences per run: 200, scaled up by {@link HostileValues#TRIES_PROPERTY} over its default. */
    default int sequences() {
        return scaled(200);
    }

    /** Actions per sequence: 50. */
    default int actionsPerSequence() {
        return 50;
    }

    /** The seed: {@link HostileValues#SEED_PROPERTY} when set, else a fixed number. */
    default long seed() {
        return Long.getLong(HostileValues.SEED_PROPERTY, 20_261_202L) + 7;
    }

    /** {@code base}, times the fuzz tries property over its default when the property is set. */
    static int scaled(int base) {
        Integer tries = Integer.getInteger(HostileValues.TRIES_PROPERTY);
        if (tries == null || tries <= HostileValues.DEFAULT_TRIES) {
            return base;
        }
        return (int) Math.min(Integer.MAX_VALUE, (long) base * tries / HostileValues.DEFAULT_TRIES);
    }

    @Test
    default void agreesWithTheReferenceModelAfterEveryStep() {
        long seed = seed();
        Random random = new Random(seed);
        Counts counts = new Counts();
        for (int s = 0; s < sequences(); s++) {
            new ModelSequence(this, actionsPerSequence(), random, counts, s).run();
        }
        System.out.println("RELIABILITY model/" + storeName() + " sequences=" + counts.sequences + " actions="
                + counts.actions + " begins=" + counts.begins + " completes=" + counts.completes + " finds="
                + counts.finds + " expiries=" + counts.expiries + " mismatches=" + counts.mismatches
                + " illegalTransitions=" + counts.illegalTransitions + " ttlGrowths=" + counts.ttlGrowths
                + " duplicateExecutions=" + counts.duplicateExecutions + " unexpected=" + counts.unexpected);
        StringBuilder detail = new StringBuilder("RELIABILITY-DETAIL model/" + storeName());
        counts.outcomes.forEach((what, n) -> detail.append(' ').append(what).append('=').append(n));
        System.out.println(detail);
        assertThat(counts.findings).as("model run of %s, seed %d", storeName(), seed).isEmpty();
        assertThat(counts.actions).isEqualTo((long) sequences() * actionsPerSequence());
    }
}
