package io.toolboundary.adapter.redis;

import io.toolboundary.application.spi.StoreFailure;
import io.vavr.control.Option;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.redisson.api.RedissonClient;
import org.redisson.api.redisnode.RedisNode;
import org.redisson.api.redisnode.RedisNodeAsync;

/**
 * Checks {@code maxmemory-policy} on the masters the store meets after its creation (a promoted replica, a
 * new cluster master): on the path of writes, at most once per {@link RedisStoreOptions#masterCheckInterval()},
 * each master not seen before gets one asynchronous {@code CONFIG GET}. Under {@code REFUSE} a write waits,
 * within its deadline, for those checks and is refused {@code STORE_UNAVAILABLE} while a master evicts or
 * was not checked in time; an evicting or unreadable master is read again at each look. Under {@code WARN}
 * writes never wait. Each finding is logged once; nothing here throws. A policy changed later on a master
 * already checked is not seen. Thread-safe.
 */
final class MasterPolicyWatch {

    private static final System.Logger LOG = System.getLogger(RedisCanonicalInvocationStore.class.getName());

    /** One master as the client knows it. */
    interface Master {
        /** Where it listens, {@code host:port}: the identity of a master across looks. */
        String address();

        /** Reads its {@code maxmemory-policy}; may fail, never throws. */
        CompletionStage<String> policy();
    }

    /** What one check found. */
    private enum Status {
        NO_EVICTION, EVICTS, UNREADABLE
    }

    private record Verdict(Status status, String policy) {
    }

    private final Supplier<List<Master>> masters;
    private final RedisStoreOptions.EvictionPolicyCheck mode;
    private final long intervalNanos;
    private final LongSupplier ticker;

    /** The check of every master of the last look, by address. Guarded by {@code this}. */
    private final Map<String, CompletableFuture<Verdict>> checks = new LinkedHashMap<>();
    /** What was logged already, so that each finding is logged once. Guarded by {@code this}. */
    private final Set<String> logged = new HashSet<>();
    /** The ticker's value at which the next look is due. Guarded by {@code this}. */
    private long nextLook;
    /** True while every master of the last look was checked and none refuses writes (under REFUSE). */
    private volatile boolean clear;
    /** {@link #nextLook}, for the lock-free path of {@link #refusal}. */
    private volatile long clearUntil;

    MasterPolicyWatch(Supplier<List<Master>> masters, RedisStoreOptions.EvictionPolicyCheck mode, Duration interval,
            LongSupplier ticker) {
        this.masters = masters;
        this.mode = mode;
        this.intervalNanos = interval.toNanos();
        this.ticker = ticker;
    }

    /**
     * A watch over the masters of {@code client}, which count as seen (the factory checked them before
     * making the store); when they cannot be listed, the first write looks.
     */
    static MasterPolicyWatch over(RedissonClient client, RedisStoreOptions options, LongSupplier ticker) {
        MasterPolicyWatch watch = new MasterPolicyWatch(() -> mastersOf(client), options.evictionPolicyCheck(),
                options.masterCheckInterval(), ticker);
        watch.seed();
        return watch;
    }

    /** The masters the client knows now, each readable asynchronously. */
    static List<Master> mastersOf(RedissonClient client) {
        List<Master> found = new ArrayList<>();
        for (RedisNode node : EvictionPolicyGuard.masters(client)) {
            found.add(new Master() {
                @Override
                public String address() {
                    return addressOf(node.getAddr());
                }

                @Override
                public CompletionStage<String> policy() {
                    if (!(node instanceof RedisNodeAsync readable)) {
                        return CompletableFuture.failedFuture(new IllegalStateException("no asynchronous node API"));
                    }
                    return readable.getConfigAsync(EvictionPolicyGuard.POLICY).thenApply(config -> {
                        String policy = config.get(EvictionPolicyGuard.POLICY);
                        if (policy == null) {
                            throw new IllegalStateException("no " + EvictionPolicyGuard.POLICY + " in the reply");
                        }
                        return policy;
                    });
                }
            });
        }
        return found;
    }

    /** Marks the masters there are now as seen and checked. */
    synchronized void seed() {
        long now = ticker.getAsLong();
        try {
            for (Master master : masters.get()) {
                checks.put(master.address(), CompletableFuture.completedFuture(new Verdict(Status.NO_EVICTION, "")));
            }
            nextLook = now + intervalNanos;
        } catch (RuntimeException cannotList) {
            nextLook = now;
        }
        updateClear();
    }

    /**
     * Whether a write may go ahead: empty when it may, {@code STORE_UNAVAILABLE} when a master may evict
     * records (or could not be checked before {@code deadline}, a {@link System#nanoTime()} instant) and
     * the options say REFUSE. Waits only for checks of masters not seen before, never past
     * {@code deadline}, through interrupts (the thread's interrupt flag is set again afterwards). Never
     * throws.
     */
    Option<StoreFailure> refusal(long deadline) {
        try {
            if (clear && ticker.getAsLong() - clearUntil < 0) {
                return Option.none();
            }
            Map<String, CompletableFuture<Verdict>> current = look();
            if (mode == RedisStoreOptions.EvictionPolicyCheck.WARN) {
                return Option.none();
            }
            for (Map.Entry<String, CompletableFuture<Verdict>> check : current.entrySet()) {
                Option<Verdict> verdict = await(check.getValue(), deadline);
                if (verdict.isEmpty()) {
                    logOnce("late:" + check.getKey(), System.Logger.Level.WARNING, "Tool Boundary Redis store: the "
                            + EvictionPolicyGuard.POLICY + " of the new master " + check.getKey()
                            + " could not be read in time; writes answer STORE_UNAVAILABLE until it is.");
                    return Option.some(StoreFailure.unavailable());
                }
                if (verdict.get().status() == Status.EVICTS) {
                    return Option.some(StoreFailure.unavailable());
                }
            }
            return Option.none();
        } catch (RuntimeException unexpected) {
            logOnce("unexpected:" + unexpected.getClass().getName(), System.Logger.Level.WARNING,
                    "Tool Boundary Redis store: the check of new masters' " + EvictionPolicyGuard.POLICY
                            + " failed with " + unexpected.getClass().getSimpleName() + "; writes go on unchecked.");
            return Option.none();
        }
    }

    /** Looks at the client's masters when a look is due; the current checks, by address. */
    private synchronized Map<String, CompletableFuture<Verdict>> look() {
        long now = ticker.getAsLong();
        if (now - nextLook >= 0) {
            nextLook = now + intervalNanos;
            List<Master> current = null;
            try {
                current = masters.get();
            } catch (RuntimeException cannotList) {
                logOnce("list:" + cannotList.getClass().getName(), System.Logger.Level.WARNING,
                        "Tool Boundary Redis store: could not list the masters (" + cannotList.getClass().getSimpleName()
                                + "); new masters' " + EvictionPolicyGuard.POLICY + " is not checked until it can.");
            }
            if (current != null) {
                Map<String, CompletableFuture<Verdict>> next = new LinkedHashMap<>();
                for (Master master : current) {
                    CompletableFuture<Verdict> known = checks.get(master.address());
                    next.put(master.address(), known == null || worthAnotherLook(known) ? check(master, known) : known);
                }
                checks.clear();
                checks.putAll(next);
            }
        }
        updateClear();
        return new LinkedHashMap<>(checks);
    }

    /** A master found evicting, or whose policy could not be read, is read again at each look. */
    private static boolean worthAnotherLook(CompletableFuture<Verdict> known) {
        return known.isDone() && known.getNow(null).status() != Status.NO_EVICTION;
    }

    private CompletableFuture<Verdict> check(Master master, CompletableFuture<Verdict> before) {
        String address = master.address();
        boolean wasEvicting = before != null && before.getNow(null).status() == Status.EVICTS;
        CompletableFuture<Verdict> check = new CompletableFuture<>();
        CompletionStage<String> read;
        try {
            read = master.policy();
        } catch (RuntimeException cannotAsk) {
            read = CompletableFuture.failedFuture(cannotAsk);
        }
        read.whenComplete((policy, failure) -> {
            Verdict verdict = failure != null || policy == null
                    ? new Verdict(Status.UNREADABLE, "")
                    : new Verdict(EvictionPolicyGuard.NO_EVICTION.equals(policy) ? Status.NO_EVICTION : Status.EVICTS,
                            policy);
            report(address, verdict, wasEvicting, failure);
            check.complete(verdict);
        });
        return check;
    }

    private void report(String address, Verdict verdict, boolean wasEvicting, Throwable failure) {
        switch (verdict.status()) {
            case EVICTS -> logOnce("evicts:" + address + ":" + verdict.policy(), System.Logger.Level.WARNING,
                    "Tool Boundary Redis store: the master " + address + " has " + EvictionPolicyGuard.POLICY + " '"
                            + verdict.policy() + "', not '" + EvictionPolicyGuard.NO_EVICTION
                            + "': Redis may delete live canonical records there (each has a TTL, so volatile-* policies"
                            + " apply too). Set " + EvictionPolicyGuard.POLICY + " " + EvictionPolicyGuard.NO_EVICTION
                            + " on it (CONFIG SET and its configuration file). "
                            + (mode == RedisStoreOptions.EvictionPolicyCheck.REFUSE
                                    ? "Until then every write answers STORE_UNAVAILABLE and writes nothing."
                                    : "Writes go on (EvictionPolicyCheck.WARN)."));
            case UNREADABLE -> logOnce("unreadable:" + address, System.Logger.Level.WARNING,
                    "Tool Boundary Redis store: could not read " + EvictionPolicyGuard.POLICY + " of the master "
                            + address + " (" + (failure == null ? "no reply" : failure.getClass().getSimpleName())
                            + "; is CONFIG GET allowed?). Make sure it is " + EvictionPolicyGuard.NO_EVICTION
                            + ": under any other policy Redis may delete live canonical records.");
            case NO_EVICTION -> {
                if (wasEvicting) {
                    forget("evicts:" + address + ":");
                    LOG.log(System.Logger.Level.INFO, "Tool Boundary Redis store: the master " + address + " now has "
                            + EvictionPolicyGuard.POLICY + " " + EvictionPolicyGuard.NO_EVICTION + "; writes go on.");
                }
            }
        }
    }

    private synchronized void logOnce(String finding, System.Logger.Level level, String message) {
        if (logged.add(finding)) {
            LOG.log(level, message);
        }
    }

    private synchronized void forget(String findingPrefix) {
        logged.removeIf(finding -> finding.startsWith(findingPrefix));
    }

    private synchronized void updateClear() {
        boolean allClear = true;
        for (CompletableFuture<Verdict> check : checks.values()) {
            Verdict verdict = check.getNow(null);
            if (verdict == null
                    || verdict.status() == Status.EVICTS && mode == RedisStoreOptions.EvictionPolicyCheck.REFUSE) {
                allClear = false;
                break;
            }
        }
        clearUntil = nextLook;
        clear = allClear;
    }

    /** The check's verdict, waiting until {@code deadline} at the latest; empty when it did not come in time. */
    private static Option<Verdict> await(CompletableFuture<Verdict> check, long deadline) {
        boolean interrupted = false;
        try {
            while (true) {
                long left = deadline - System.nanoTime();
                if (check.isDone() || left <= 0) {
                    return Option.of(check.getNow(null));
                }
                try {
                    return Option.of(check.get(left, TimeUnit.NANOSECONDS));
                } catch (InterruptedException interrupt) {
                    interrupted = true;
                } catch (TimeoutException outOfTime) {
                    return Option.none();
                } catch (ExecutionException never) {
                    // A check always completes normally.
                    return Option.none();
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    static String addressOf(InetSocketAddress address) {
        return address.getHostString() + ":" + address.getPort();
    }
}
