package io.toolboundary.adapter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.spi.StoreFailure;
import io.vavr.control.Option;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The watch over fake masters and a fake ticker: when it looks, what it asks, and what it refuses. */
class MasterPolicyWatchTest {

    private static final Duration INTERVAL = Duration.ofSeconds(10);
    private static final Option<StoreFailure> UNAVAILABLE = Option.some(StoreFailure.unavailable());

    private final AtomicLong ticker = new AtomicLong(1_000);
    private final Masters masters = new Masters();

    @Test
    void looksAtMostOncePerIntervalAndChecksOnlyMastersItHasNotSeen() {
        masters.set("a:1", "noeviction");
        MasterPolicyWatch watch = watch(RedisStoreOptions.EvictionPolicyCheck.REFUSE);

        for (int write = 0; write < 5; write++) {
            assertThat(watch.refusal(soon())).isEmpty();
        }
        assertThat(masters.listed.get()).as("lists: the seed only").isEqualTo(1);
        assertThat(masters.asked).isEmpty();

        masters.set("b:2", "noeviction");
        ticker.addAndGet(INTERVAL.toNanos() - 1);
        assertThat(watch.refusal(soon())).isEmpty();
        assertThat(masters.listed.get()).as("one nanosecond early").isEqualTo(1);
        ticker.addAndGet(1);
        assertThat(watch.refusal(soon())).isEmpty();
        assertThat(watch.refusal(soon())).isEmpty();
        assertThat(masters.listed.get()).isEqualTo(2);
        assertThat(masters.asked).containsExactly(Map.entry("b:2", 1));

        ticker.addAndGet(INTERVAL.toNanos());
        assertThat(watch.refusal(soon())).isEmpty();
        assertThat(masters.listed.get()).isEqualTo(3);
        assertThat(masters.asked).as("b:2 is not asked twice").containsExactly(Map.entry("b:2", 1));
    }

    @Test
    void underRefuseAnEvictingMasterRefusesWritesUntilItIsFixedOrGone() {
        masters.set("a:1", "noeviction");
        MasterPolicyWatch watch = watch(RedisStoreOptions.EvictionPolicyCheck.REFUSE);

        masters.set("b:2", "volatile-lru");
        ticker.addAndGet(INTERVAL.toNanos());
        assertThat(watch.refusal(soon())).isEqualTo(UNAVAILABLE);
        assertThat(watch.refusal(soon())).isEqualTo(UNAVAILABLE);
        assertThat(masters.asked).containsExactly(Map.entry("b:2", 1));

        ticker.addAndGet(INTERVAL.toNanos());
        assertThat(watch.refusal(soon())).as("asked again, still evicting").isEqualTo(UNAVAILABLE);
        assertThat(masters.asked).containsExactly(Map.entry("b:2", 2));

        masters.set("b:2", "noeviction");
        ticker.addAndGet(INTERVAL.toNanos());
        assertThat(watch.refusal(soon())).isEmpty();

        masters.set("c:3", "allkeys-lru");
        ticker.addAndGet(INTERVAL.toNanos());
        assertThat(watch.refusal(soon())).isEqualTo(UNAVAILABLE);
        masters.remove("c:3");
        ticker.addAndGet(INTERVAL.toNanos());
        assertThat(watch.refusal(soon())).as("the evicting master left").isEmpty();
    }

    @Test
    void underWarnNothingIsRefusedAndNothingWaited() {
        masters.set("a:1", "noeviction");
        MasterPolicyWatch watch = watch(RedisStoreOptions.EvictionPolicyCheck.WARN);
        masters.set("b:2", "allkeys-lru");
        masters.never("c:3");
        ticker.addAndGet(INTERVAL.toNanos());

        long started = System.nanoTime();
        assertThat(watch.refusal(System.nanoTime() + Duration.ofSeconds(5).toNanos())).isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));
        assertThat(masters.asked).containsOnlyKeys("b:2", "c:3");
    }

    @Test
    void underRefuseACheckThatDoesNotAnswerInTimeRefusesTheWriteAtItsDeadline() {
        masters.set("a:1", "noeviction");
        MasterPolicyWatch watch = watch(RedisStoreOptions.EvictionPolicyCheck.REFUSE);
        CompletableFuture<String> late = masters.never("b:2");
        ticker.addAndGet(INTERVAL.toNanos());

        long started = System.nanoTime();
        assertThat(watch.refusal(System.nanoTime() + Duration.ofMillis(50).toNanos())).isEqualTo(UNAVAILABLE);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isBetween(Duration.ofMillis(50), Duration.ofSeconds(2));

        late.complete("noeviction");
        assertThat(watch.refusal(soon())).isEmpty();
        assertThat(masters.asked).containsExactly(Map.entry("b:2", 1));
    }

    @Test
    void aPolicyThatCannotBeReadLetsWritesThroughAndIsReadAgainAtTheNextLook() {
        masters.set("a:1", "noeviction");
        MasterPolicyWatch watch = watch(RedisStoreOptions.EvictionPolicyCheck.REFUSE);
        masters.failing("b:2");
        ticker.addAndGet(INTERVAL.toNanos());

        assertThat(watch.refusal(soon())).isEmpty();
        ticker.addAndGet(INTERVAL.toNanos());
        masters.set("b:2", "allkeys-random");
        assertThat(watch.refusal(soon())).isEqualTo(UNAVAILABLE);
        assertThat(masters.asked).containsExactly(Map.entry("b:2", 2));
    }

    @Test
    void neverThrowsWhenTheMastersCannotBeListed() {
        masters.set("a:1", "noeviction");
        MasterPolicyWatch watch = watch(RedisStoreOptions.EvictionPolicyCheck.REFUSE);
        masters.broken = true;
        ticker.addAndGet(INTERVAL.toNanos());

        assertThat(watch.refusal(soon())).isEmpty();
    }

    @Test
    void waitsThroughAnInterruptAndSetsTheFlagAgain() {
        masters.set("a:1", "noeviction");
        MasterPolicyWatch watch = watch(RedisStoreOptions.EvictionPolicyCheck.REFUSE);
        masters.never("b:2");
        ticker.addAndGet(INTERVAL.toNanos());

        Thread.currentThread().interrupt();
        long started = System.nanoTime();
        Option<StoreFailure> refused = watch.refusal(System.nanoTime() + Duration.ofMillis(50).toNanos());

        assertThat(Thread.interrupted()).isTrue();
        assertThat(refused).isEqualTo(UNAVAILABLE);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(50));
    }

    private MasterPolicyWatch watch(RedisStoreOptions.EvictionPolicyCheck mode) {
        MasterPolicyWatch watch = new MasterPolicyWatch(masters::list, mode, INTERVAL, ticker::get);
        watch.seed();
        return watch;
    }

    private static long soon() {
        return System.nanoTime() + Duration.ofSeconds(5).toNanos();
    }

    /** Fake masters: each answers a policy, fails, or never answers; every read is counted. */
    private static final class Masters {
        private final Map<String, CompletableFuture<String>> answers = new ConcurrentHashMap<>();
        final Map<String, Integer> asked = new ConcurrentHashMap<>();
        final AtomicInteger listed = new AtomicInteger();
        volatile boolean broken;

        void set(String address, String policy) {
            answers.put(address, CompletableFuture.completedFuture(policy));
        }

        void failing(String address) {
            answers.put(address, CompletableFuture.failedFuture(new IllegalStateException("ERR unknown command")));
        }

        CompletableFuture<String> never(String address) {
            CompletableFuture<String> pending = new CompletableFuture<>();
            answers.put(address, pending);
            return pending;
        }

        void remove(String address) {
            answers.remove(address);
        }

        List<MasterPolicyWatch.Master> list() {
            listed.incrementAndGet();
            if (broken) {
                throw new IllegalStateException("no topology");
            }
            List<MasterPolicyWatch.Master> current = new ArrayList<>();
            for (String address : answers.keySet().stream().sorted().toList()) {
                current.add(new MasterPolicyWatch.Master() {
                    @Override
                    public String address() {
                        return address;
                    }

                    @Override
                    public CompletionStage<String> policy() {
                        asked.merge(address, 1, Integer::sum);
                        return answers.get(address);
                    }
                });
            }
            return current;
        }
    }
}
