package io.toolboundary.adapter.inmemory.reliability;

import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.tck.reliability.StoreModelContract;
import io.toolboundary.testkit.MutableClock;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;

/** The in-memory store against the reference model, its expiry following a clock the suite moves. */
class InMemoryStoreModelTest implements StoreModelContract {

    private final MutableClock clock = MutableClock.at(Instant.parse("2031-01-01T00:00:00Z"));
    private final InMemoryCanonicalInvocationStore store = InMemoryCanonicalInvocationStore.create(clock);

    @Override
    public CanonicalInvocationStore store() {
        return store;
    }

    @Override
    public String storeName() {
        return "in-memory";
    }

    @Override
    public Option<Duration> remainingTtl(InvocationKey key) {
        return store.remainingTtl(key);
    }

    @Override
    public Option<MutableClock> storeClock() {
        return Option.of(clock);
    }
}
