package io.toolboundary.adapter.redis;

import static java.util.Objects.requireNonNull;

import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Creates {@link RedisCanonicalInvocationStore}s. The only public type of this library that names a
 * Redisson type.
 *
 * <p>Before returning a store, each factory method reads {@code maxmemory-policy} on every master:
 * unless it is {@code noeviction}, it throws {@link IllegalStateException} naming the policy (or logs a
 * warning, with {@link RedisStoreOptions.EvictionPolicyCheck#WARN}). When the policy cannot be read (for
 * example {@code CONFIG} is not allowed), it logs a warning and goes on.
 */
public final class RedisCanonicalInvocationStoreFactory {

    private RedisCanonicalInvocationStoreFactory() {
    }

    /**
     * A store on an existing client, which the caller keeps owning: {@link RedisCanonicalInvocationStore#close()}
     * does not shut it down. The client's codec does not matter (the store always uses strings); its
     * script cache should be on (Redisson's default) so that scripts run by SHA.
     *
     * @throws IllegalStateException when a master may evict records and the options say REFUSE
     */
    public static RedisCanonicalInvocationStore create(RedissonClient client, RedisStoreOptions options) {
        requireNonNull(client, "client is null");
        requireNonNull(options, "options is null");
        EvictionPolicyGuard.check(client, options);
        return new RedisCanonicalInvocationStore(client, false, options);
    }

    /**
     * A store on a new client made from a copy of {@code config}, with the script cache turned on. The
     * store owns that client: {@link RedisCanonicalInvocationStore#close()} shuts it down.
     *
     * @throws IllegalStateException when a master may evict records and the options say REFUSE
     */
    public static RedisCanonicalInvocationStore create(Config config, RedisStoreOptions options) {
        requireNonNull(config, "config is null");
        requireNonNull(options, "options is null");
        Config own = new Config(config).setUseScriptCache(true);
        RedissonClient client = Redisson.create(own);
        try {
            EvictionPolicyGuard.check(client, options);
        } catch (RuntimeException refused) {
            client.shutdown();
            throw refused;
        }
        return new RedisCanonicalInvocationStore(client, true, options);
    }
}
